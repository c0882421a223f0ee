package org.gridrun.grids;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;

/**
 * Reads the top level of a grid file and the files it includes: {@code defaults}, {@code slurm} and {@code runs}
 * ({@code shared} is free-form, a place for anchors only).
 *
 * <p>The sources come included files first, the loaded file last; each later one's defaults and slurm settings
 * win over earlier ones', so the including file wins. Runs come in that order too, and every run sees the merged
 * defaults. A run name defined in two files is a problem. A run too broken to read is left out, its problems
 * reported.
 */
final class GridReader {

    /**
     * What a grid file and its includes define.
     *
     * @param runs  the runs by name, in order
     * @param slurm the merged file-level {@code slurm:} blocks
     */
    record Grid(Map<String, RunSpec> runs, SlurmBlock slurm) {
    }

    private GridReader() {
    }

    static Grid read(List<Source> sources, KeySchema schema, ProblemList problems) {
        Defaults defaults = new Defaults();
        SlurmBlock slurm = SlurmBlock.NONE;
        for (int level = 0; level < sources.size(); level++) {
            Source source = sources.get(level);
            KeyCheck keys = new KeyCheck(schema, source.problems());
            Optional<Node> node = source.top().get("defaults");
            if (node.isPresent()) {
                defaults.add(defaults(node.get(), keys), level);
            }
            slurm = source.top().get("slurm").map(new SlurmReader(source.problems())::read).orElse(SlurmBlock.NONE)
                    .over(slurm);
        }
        Map<String, RunSpec> runs = new LinkedHashMap<>();
        Map<String, Set<String>> keysOfRuns = new LinkedHashMap<>();
        Map<String, AfterReader> afterReaders = new HashMap<>();
        Map<String, Origin> defined = new HashMap<>();
        for (Source source : sources) {
            KeyCheck keys = new KeyCheck(schema, source.problems());
            RunReader reader = new RunReader(keys, defaults);
            for (Mapping.Entry run : runEntries(source)) {
                Origin first = defined.putIfAbsent(run.name(), source.problems().origin(run.key().mark()));
                if (first != null) {
                    source.problems().add(run.key().mark(), "run '" + run.name() + "' is also defined at " + first
                            + "; a run name may be used once across a grid file and the files it includes");
                    continue;
                }
                keysOfRuns.put(run.name(), null);
                reader.read(run).ifPresent(spec -> {
                    runs.put(spec.name(), spec);
                    keysOfRuns.put(spec.name(), spec.keys());
                    afterReaders.put(spec.name(), new AfterReader(keys));
                });
            }
        }
        Source root = sources.isEmpty() ? null : sources.get(sources.size() - 1);
        if (root != null && root.problems().file().equals(problems.file())
                && sources.stream().noneMatch(s -> s.top().entry("runs").isPresent())) {
            problems.add(root.top().mark(), "no 'runs:' in the grid file; add a mapping of run names to runs");
        }
        runs.values().forEach(run -> afterReaders.get(run.name()).check(run.name(), run.after(), keysOfRuns));
        AfterReader.circles(runs).forEach(circle -> afterReaders.get(circle.run()).report(circle));
        return new Grid(runs, slurm);
    }

    private static List<Mapping.Entry> runEntries(Source source) {
        Optional<Node> value = source.top().get("runs");
        if (value.isEmpty()) {
            return List.of();
        }
        if (!(value.get() instanceof Mapping named) || named.entries().isEmpty()) {
            source.problems().add(value.get().mark(), value.get() instanceof Mapping
                    ? "runs holds no run; add at least one"
                    : "runs must be a mapping of run names to runs, found " + value.get().describe());
            return List.of();
        }
        return named.entries();
    }

    private static List<Axis> defaults(Node node, KeyCheck keys) {
        if (node instanceof Mapping mapping) {
            return new SubGridReader(keys).axes(mapping);
        }
        if (!(node instanceof Scalar scalar && scalar.isNull())) {
            keys.problems().add(node.mark(), "defaults must be a mapping of keys to values, found "
                    + node.describe());
        }
        return List.of();
    }
}
