package org.gridrun.grids;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads what a key is set to: one option per value, each the space of that value and its overrides.
 *
 * <p>A value is a scalar, or a single-entry mapping {@code value: {key: value, …}}: the value with overrides, whose
 * mapping is read like a sub-grid (lists, zip groups, further overrides), or is a list of such mappings (their
 * union). A generator ({@code {range: […]}}, {@code {sample: …}} …) stands for the values it gives. A list holds
 * any of these, in order. An option's points set the key first, then its override keys, the seed's order.
 */
final class ValueReader {
    private final KeyCheck keys;
    private final ProblemList problems;
    private final SubGridReader grids;

    ValueReader(KeyCheck keys, SubGridReader grids) {
        this.keys = keys;
        this.problems = keys.problems();
        this.grids = grids;
    }

    /** The options of {@code key}, in order: one per value, a generator giving one per value it generates. */
    List<Space> options(Scalar key, Node node) {
        List<Space> options = new ArrayList<>();
        if (node instanceof Sequence list) {
            if (list.items().isEmpty()) {
                problems.add(node.mark(), key.text() + ": an empty list gives an empty product;"
                        + " give at least one value or remove the key");
            }
            for (Node item : list.items()) {
                if (item instanceof Sequence) {
                    problems.add(item.mark(), key.text() + ": a list item must be a single value, found a list");
                } else {
                    option(key, item, options);
                }
            }
        } else {
            option(key, node, options);
        }
        return options;
    }

    /** All options of {@code key} as one space. */
    Space read(Scalar key, Node node) {
        return Space.union(options(key, node));
    }

    private void option(Scalar key, Node node, List<Space> into) {
        if (node instanceof Scalar value) {
            into.add(Space.of(keys.setting(key.text(), value), key.mark()));
        } else if (node instanceof Mapping mapping) {
            if (Generators.isGenerator(mapping)) {
                Generators.values(mapping, problems)
                        .forEach(value -> into.add(Space.of(keys.setting(key.text(), value), key.mark())));
            } else if (isOverride(mapping)) {
                into.add(override(key, mapping.entries().get(0)));
            } else {
                problems.add(mapping.mark(), notAValue(key, mapping));
            }
        }
    }

    private Space override(Scalar key, Mapping.Entry entry) {
        Space value = Space.of(keys.setting(key.text(), entry.key()), key.mark());
        Space overrides = grids.space(entry.value(), entry.name());
        if (overrides.points().isEmpty()) {
            return value;
        }
        return Space.product(List.of(value, overrides), problems, entry.key().mark());
    }

    private static boolean isOverride(Mapping mapping) {
        if (mapping.entries().size() != 1) {
            return false;
        }
        Node value = mapping.entries().get(0).value();
        return value instanceof Mapping || value instanceof Sequence list && !list.items().isEmpty()
                && list.items().stream().allMatch(Mapping.class::isInstance)
                || value instanceof Scalar scalar && scalar.isNull();
    }

    private static String notAValue(Scalar key, Mapping mapping) {
        List<String> names = mapping.entries().stream().map(Mapping.Entry::name).toList();
        String found = names.isEmpty() ? "an empty mapping" : "a mapping with "
                + (names.size() == 1 ? "key " : "keys ") + names.stream().map(n -> "'" + n + "'")
                .collect(Collectors.joining(", "));
        String hint = names.size() == 1 ? Suggestions.didYouMean(names.get(0), Generators.NAMES) : "";
        return key.text() + ": a mapping here must be a generator (" + String.join(", ", Generators.NAMES)
                + ") or a value with its overrides, such as {nuq: {mul: 0.5}}; found " + found + hint;
    }
}
