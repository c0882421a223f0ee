package org.gridrun.engine.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The type of a configuration value, with the check that a grid or a run directory's value conforms.
 *
 * <p>Values arrive as {@code String}, {@code Long}, {@code Double} or {@code Boolean} (what
 * {@link org.gridrun.engine.run.ConfigValues#normalise} produces). {@code INT} accepts a Long; {@code DOUBLE} a Long
 * or a Double; {@code BOOL} a Boolean, or the empty string of a flag written without a value (true); {@code STRING} any scalar; {@code INT_LIST} a Long or a String of
 * comma-separated integers such as {@code "512,512"} (the empty string is the empty list).
 */
public enum ValueType {
    INT("an integer"),
    DOUBLE("a number"),
    BOOL("true or false (or '' for true)"),
    STRING("a string"),
    INT_LIST("an integer or a comma-separated list of integers");

    private final String description;

    ValueType(String description) {
        this.description = description;
    }

    /** What a conforming value is, in words: {@code an integer}. */
    public String description() {
        return description;
    }

    /** Why {@code value} does not conform, e.g. {@code must be an integer, found 'abc'}; empty when it does. */
    public Optional<String> problem(Object value) {
        boolean ok = switch (this) {
            case INT -> value instanceof Long || value instanceof Integer;
            case DOUBLE -> value instanceof Long || value instanceof Integer || value instanceof Double;
            case BOOL -> value instanceof Boolean || "".equals(value);
            case STRING -> value instanceof String || value instanceof Number || value instanceof Boolean;
            case INT_LIST -> value instanceof Long || value instanceof Integer
                    || value instanceof String s && parseList(s) != null;
        };
        return ok ? Optional.empty() : Optional.of("must be " + description + ", found " + show(value));
    }

    /** A value as messages show it: strings in single quotes, everything else as Java prints it. */
    public static String show(Object value) {
        return value instanceof String ? "'" + value + "'" : String.valueOf(value);
    }

    /** The integers of an {@code INT_LIST} string, or null when one piece is not an integer. */
    static List<Long> parseList(String text) {
        List<Long> values = new ArrayList<>();
        if (text.isBlank()) {
            return values;
        }
        for (String piece : text.split(",", -1)) {
            try {
                values.add(Long.parseLong(piece.trim()));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return values;
    }
}
