package org.gridrun.grids;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads a mapping of trainer keys to values into axes, checking each key and value against the {@link KeySchema}.
 *
 * <p>A value is a scalar (one value) or a list of scalars (the values of the axis, in order). An unknown key, an
 * empty list, a nested mapping or list, a null, and a value the schema rejects are problems. An axis is returned
 * whenever it has values, even with problems, so that later checks see its key.
 */
final class AxisReader {
    private final KeySchema schema;
    private final Set<String> keys;
    private final ProblemList problems;

    AxisReader(KeySchema schema, ProblemList problems) {
        this.schema = schema;
        this.keys = Set.copyOf(schema.keys());
        this.problems = problems;
    }

    /** The axes of {@code mapping} in key order. */
    List<Axis> read(Mapping mapping) {
        List<Axis> axes = new ArrayList<>();
        for (Mapping.Entry entry : mapping.entries()) {
            checkKey(entry.key());
            List<Scalar> values = values(entry.name(), entry.value());
            values.forEach(value -> checkValue(entry.name(), value));
            if (!values.isEmpty()) {
                axes.add(new Axis(entry.key(), values));
            }
        }
        return axes;
    }

    /** Whether the schema knows {@code key}. */
    boolean knows(String key) {
        return keys.contains(key);
    }

    /** Whether the schema knows {@code key}; an unknown key is a problem with a did-you-mean hint. */
    boolean checkKey(Scalar key) {
        if (keys.contains(key.text())) {
            return true;
        }
        problems.add(key.mark(), "unknown key '" + key.text() + "'" + Suggestions.didYouMean(key.text(), keys));
        return false;
    }

    /** Checks one value of a known or unknown key: a null is a problem, and so is what the schema rejects. */
    void checkValue(String key, Scalar value) {
        if (value.isNull()) {
            problems.add(value.mark(), key + " has no value; write '' for a flag without a value");
        } else if (keys.contains(key)) {
            Optional<String> problem = schema.problem(key, value.value());
            if (problem.isPresent()) {
                problems.add(value.mark(), key + " " + problem.get());
            } else {
                checkChoice(key, value);
            }
        }
    }

    private void checkChoice(String key, Scalar value) {
        List<String> choices = schema.choices(key);
        String text = String.valueOf(value.value());
        if (!choices.isEmpty() && !choices.contains(text)) {
            problems.add(value.mark(), key + " must be one of " + choices + ", found '" + text + "'"
                    + Suggestions.didYouMean(text, choices));
        }
    }

    private List<Scalar> values(String key, Node node) {
        if (node instanceof Scalar scalar) {
            return List.of(scalar);
        }
        if (node instanceof Mapping) {
            problems.add(node.mark(), key + ": nested mappings are not supported as values;"
                    + " give a value or a list of values");
            return List.of();
        }
        List<Node> items = ((Sequence) node).items();
        if (items.isEmpty()) {
            problems.add(node.mark(), key + ": an empty list gives an empty product;"
                    + " give at least one value or remove the key");
        }
        List<Scalar> values = new ArrayList<>();
        for (Node item : items) {
            if (item instanceof Scalar scalar) {
                values.add(scalar);
            } else {
                problems.add(item.mark(), key + ": a list item must be a single value, found " + item.describe());
            }
        }
        return values;
    }
}
