package org.gridrun.grids;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads one named run: {@code grid} (a mapping or a list of mappings), {@code prefix}, {@code exclude},
 * {@code seeds}, {@code slurm} and {@code after}.
 *
 * <p>Each sub-grid gets the defaults merged under it and the run's seed axis last, as {@link Defaults} says. A run
 * name is a directory name, so it may hold only letters, digits, {@code .}, {@code _} and {@code -}, and is not
 * {@code .} or {@code ..}. A run that spans more than {@link Space#MAX_POINTS} combinations is refused.
 */
final class RunReader {
    static final List<String> RUN_KEYS = List.of("grid", "prefix", "exclude", "seeds", "slurm", "after");
    private static final Pattern RUN_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    private final KeyCheck keys;
    private final SubGridReader grids;
    private final Defaults defaults;
    private final ProblemList problems;

    RunReader(KeyCheck keys, Defaults defaults) {
        this.keys = keys;
        this.grids = new SubGridReader(keys);
        this.defaults = defaults;
        this.problems = keys.problems();
    }

    /** The run of one {@code runs:} entry, or empty when it is too broken to read further. */
    Optional<RunSpec> read(Mapping.Entry run) {
        String name = run.name();
        if (!RUN_NAME.matcher(name).matches()) {
            problems.add(run.key().mark(), "run name '" + name + "' may hold only letters, digits, '.', '_' and '-'");
        } else if (name.equals(".") || name.equals("..")) {
            problems.add(run.key().mark(), "run name '" + name + "' names no directory of its own (runs/GRID/"
                    + name + " is the grid's or its parent); use letters or digits");
        }
        if (!(run.value() instanceof Mapping body)) {
            problems.add(run.value().mark(), "run '" + name + "' must be a mapping with a 'grid:' key; found "
                    + run.value().describe());
            return Optional.empty();
        }
        body.entries().stream().filter(e -> !RUN_KEYS.contains(e.name())).forEach(this::unknownRunKey);
        String prefix = body.get("prefix").map(this::prefix).orElse(name);
        Set<String> exclude = body.get("exclude").map(this::exclude).orElse(Set.of());
        Optional<Axis> seeds = body.entry("seeds").flatMap(new SeedAxis(keys)::read);
        SlurmBlock slurm = body.get("slurm").map(new SlurmReader(problems)::read).orElse(SlurmBlock.NONE);
        List<AfterReader.After> after = body.get("after").map(new AfterReader(keys)::read).orElse(List.of());
        Optional<Node> grid = body.get("grid");
        if (grid.isEmpty()) {
            problems.add(run.key().mark(), "run '" + name + "' has no 'grid:'; give it a mapping of keys to values,"
                    + " or a list of such mappings");
            return Optional.empty();
        }
        RunSpec spec = new RunSpec(name, prefix, exclude, subGrids(name, grid.get(), seeds), slurm, after);
        if (spec.size() > Space.MAX_POINTS) {
            problems.add(grid.get().mark(), "run '" + name + "' spans " + (spec.size() == Long.MAX_VALUE ? "too many"
                    : spec.size()) + " experiments; a run may span at most " + Space.MAX_POINTS
                    + ": split it into runs, or use sample for a random subset");
        }
        return Optional.of(spec);
    }

    private void unknownRunKey(Mapping.Entry entry) {
        String hint = keys.knows(entry.name()) ? "; trainer keys go under 'grid:'"
                : Suggestions.didYouMean(entry.name(), RUN_KEYS);
        problems.add(entry.key().mark(), "unknown run key '" + entry.name() + "'" + hint
                + " (a run takes " + String.join(", ", RUN_KEYS) + ")");
    }

    private String prefix(Node node) {
        if (node instanceof Scalar scalar && !scalar.isNull() && !scalar.text().isEmpty()) {
            return scalar.text();
        }
        problems.add(node.mark(), "prefix must be a non-empty name, found " + node.describe());
        return "";
    }

    private Set<String> exclude(Node node) {
        List<Node> items = node instanceof Sequence list ? list.items() : List.of(node);
        Set<String> excluded = new LinkedHashSet<>();
        for (Node item : items) {
            if (item instanceof Scalar key && !key.isNull()) {
                keys.checkKey(key);
                excluded.add(key.text());
            } else {
                problems.add(item.mark(), "exclude takes a key or a list of keys, found " + item.describe());
            }
        }
        return excluded;
    }

    private List<SubGrid> subGrids(String run, Node grid, Optional<Axis> seeds) {
        List<Node> items = grid instanceof Sequence list ? list.items() : List.of(grid);
        if (items.isEmpty() || grid instanceof Mapping m && m.entries().isEmpty()
                || grid instanceof Scalar s && s.isNull()) {
            problems.add(grid.mark(), "run '" + run + "' has an empty grid; give it a mapping of keys to values,"
                    + " or a list of such mappings");
            return List.of();
        }
        List<SubGrid> subGrids = new ArrayList<>();
        for (Node item : items) {
            if (item instanceof Mapping mapping) {
                SubGrid sub = defaults.under(grids.axes(mapping), seeds, problems);
                if (sub.axes().isEmpty() && mapping.entries().isEmpty()) {
                    problems.add(mapping.mark(), "empty sub-grid; give it at least one key");
                }
                subGrids.add(sub);
            } else {
                problems.add(item.mark(), "a sub-grid must be a mapping of keys to values, found " + item.describe());
            }
        }
        return subGrids;
    }
}
