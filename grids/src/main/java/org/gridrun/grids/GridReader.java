package org.gridrun.grids;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Mark;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.YamlDocument;

/**
 * Reads a grid file's top level: {@code defaults} (optional), {@code runs} (required) and {@code shared}
 * (free-form, a place for anchors only).
 *
 * <p>Any other top-level key is a problem. The runs come back in file order; a run too broken to read is left out,
 * its problems reported.
 */
final class GridReader {
    static final List<String> TOP_KEYS = List.of("defaults", "runs", "shared");

    private GridReader() {
    }

    static Map<String, RunSpec> read(YamlDocument document, KeySchema schema, ProblemList problems) {
        problems.addAll(document.problems());
        Node root = document.root();
        if (root == null) {
            if (!document.problems().isEmpty()) {
                return Map.of();
            }
            problems.add(new Mark(1, 1), "the grid file is empty; it needs 'runs:' with at least one run");
            return Map.of();
        }
        if (!(root instanceof Mapping top)) {
            problems.add(root.mark(), "a grid file is a mapping with 'runs:' (and optionally 'defaults:' and"
                    + " 'shared:'); found " + root.describe());
            return Map.of();
        }
        top.entries().stream().filter(e -> !TOP_KEYS.contains(e.name())).forEach(e -> problems.add(e.key().mark(),
                "unknown top-level key '" + e.name() + "'" + Suggestions.didYouMean(e.name(), TOP_KEYS)
                        + " (a grid file takes " + String.join(", ", TOP_KEYS) + ")"));
        AxisReader axes = new AxisReader(schema, problems);
        List<Axis> defaults = top.get("defaults").map(node -> defaults(node, axes, problems)).orElse(List.of());
        Optional<Mapping.Entry> runs = top.entry("runs");
        if (runs.isEmpty()) {
            problems.add(top.mark(), "no 'runs:' in the grid file; add a mapping of run names to runs");
            return Map.of();
        }
        Node value = runs.get().value();
        if (!(value instanceof Mapping named) || named.entries().isEmpty()) {
            problems.add(value.mark(), value instanceof Mapping ? "runs holds no run; add at least one"
                    : "runs must be a mapping of run names to runs, found " + value.describe());
            return Map.of();
        }
        RunReader reader = new RunReader(axes, defaults, problems);
        Map<String, RunSpec> specs = new LinkedHashMap<>();
        named.entries().forEach(entry -> reader.read(entry).ifPresent(spec -> specs.put(spec.name(), spec)));
        return specs;
    }

    private static List<Axis> defaults(Node node, AxisReader axes, ProblemList problems) {
        if (node instanceof Mapping mapping) {
            return axes.read(mapping);
        }
        if (!(node instanceof Scalar scalar && scalar.isNull())) {
            problems.add(node.mark(), "defaults must be a mapping of keys to values, found " + node.describe());
        }
        return List.of();
    }
}
