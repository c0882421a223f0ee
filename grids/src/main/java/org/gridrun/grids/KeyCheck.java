package org.gridrun.grids;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.gridrun.grids.yaml.Scalar;

/**
 * Checks keys and values against the {@link KeySchema}, reporting what it rejects where it was written.
 *
 * <p>An unknown key gets a did-you-mean hint; a null value, a value the schema rejects and a value outside the
 * key's fixed choices are problems. One instance serves one file.
 */
final class KeyCheck {
    private final KeySchema schema;
    private final Set<String> keys;
    private final ProblemList problems;

    KeyCheck(KeySchema schema, ProblemList problems) {
        this.schema = schema;
        this.keys = Set.copyOf(schema.keys());
        this.problems = problems;
    }

    /** Where this file's problems go. */
    ProblemList problems() {
        return problems;
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

    /** A setting of {@code key} to {@code value}, checked; its origin is where the value was written. */
    Setting setting(String key, Scalar value) {
        checkValue(key, value);
        return new Setting(key, value.value(), value.text(), problems.origin(value.mark()));
    }

    private void checkChoice(String key, Scalar value) {
        List<String> choices = schema.choices(key);
        String text = String.valueOf(value.value());
        if (!choices.isEmpty() && !choices.contains(text)) {
            problems.add(value.mark(), key + " must be one of " + choices + ", found '" + text + "'"
                    + Suggestions.didYouMean(text, choices));
        }
    }
}
