package org.gridrun.grids;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads one named run: {@code grid} (a mapping or a list of mappings), {@code prefix}, {@code exclude} and
 * {@code seeds}.
 *
 * <p>Each sub-grid gets the file's defaults merged under it (default keys first, a sub-grid's own value replacing a
 * default in place) and the run's seed axis last. A run name is a directory name, so it may hold only letters,
 * digits, {@code .}, {@code _} and {@code -}.
 */
final class RunReader {
    static final List<String> RUN_KEYS = List.of("grid", "prefix", "exclude", "seeds");
    private static final Pattern RUN_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    private final AxisReader axes;
    private final List<Axis> defaults;
    private final ProblemList problems;

    RunReader(AxisReader axes, List<Axis> defaults, ProblemList problems) {
        this.axes = axes;
        this.defaults = List.copyOf(defaults);
        this.problems = problems;
    }

    /** The run of one {@code runs:} entry, or empty when it is too broken to read further. */
    Optional<RunSpec> read(Mapping.Entry run) {
        String name = run.name();
        if (!RUN_NAME.matcher(name).matches()) {
            problems.add(run.key().mark(), "run name '" + name + "' may hold only letters, digits, '.', '_' and '-'");
        }
        if (!(run.value() instanceof Mapping body)) {
            problems.add(run.value().mark(), "run '" + name + "' must be a mapping with a 'grid:' key; found "
                    + run.value().describe());
            return Optional.empty();
        }
        body.entries().stream().filter(e -> !RUN_KEYS.contains(e.name())).forEach(this::unknownRunKey);
        String prefix = body.get("prefix").map(this::prefix).orElse(name);
        Set<String> exclude = body.get("exclude").map(this::exclude).orElse(Set.of());
        Optional<Axis> seeds = body.entry("seeds").flatMap(new SeedAxis(axes, problems)::read);
        Optional<Node> grid = body.get("grid");
        if (grid.isEmpty()) {
            problems.add(run.key().mark(), "run '" + name + "' has no 'grid:'; give it a mapping of keys to values,"
                    + " or a list of such mappings");
            return Optional.empty();
        }
        return Optional.of(new RunSpec(name, prefix, exclude, subGrids(name, grid.get(), seeds)));
    }

    private void unknownRunKey(Mapping.Entry entry) {
        String hint = axes.knows(entry.name()) ? "; trainer keys go under 'grid:'"
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
        Set<String> keys = new LinkedHashSet<>();
        for (Node item : items) {
            if (item instanceof Scalar key && !key.isNull()) {
                axes.checkKey(key);
                keys.add(key.text());
            } else {
                problems.add(item.mark(), "exclude takes a key or a list of keys, found " + item.describe());
            }
        }
        return keys;
    }

    private List<List<Axis>> subGrids(String run, Node grid, Optional<Axis> seeds) {
        List<Node> items = grid instanceof Sequence list ? list.items() : List.of(grid);
        if (items.isEmpty() || grid instanceof Mapping m && m.entries().isEmpty()
                || grid instanceof Scalar s && s.isNull()) {
            problems.add(grid.mark(), "run '" + run + "' has an empty grid; give it a mapping of keys to values,"
                    + " or a list of such mappings");
            return List.of();
        }
        List<List<Axis>> subGrids = new ArrayList<>();
        for (Node item : items) {
            if (item instanceof Mapping mapping) {
                subGrids.add(subGrid(mapping, seeds));
            } else {
                problems.add(item.mark(), "a sub-grid must be a mapping of keys to values, found " + item.describe());
            }
        }
        return subGrids;
    }

    private List<Axis> subGrid(Mapping mapping, Optional<Axis> seeds) {
        Map<String, Axis> merged = new LinkedHashMap<>();
        defaults.forEach(axis -> merged.put(axis.name(), axis));
        axes.read(mapping).forEach(axis -> merged.put(axis.name(), axis));
        seeds.ifPresent(seed -> {
            Axis own = merged.remove(SeedAxis.KEY);
            if (own != null && !defaults.contains(own)) {
                problems.add(own.key().mark(), "seed is also set by 'seeds:' at line " + seed.key().mark().line()
                        + "; keep one of them");
            }
            merged.put(SeedAxis.KEY, seed);
        });
        if (merged.isEmpty() && mapping.entries().isEmpty()) {
            problems.add(mapping.mark(), "empty sub-grid; give it at least one key");
        }
        return new ArrayList<>(merged.values());
    }
}
