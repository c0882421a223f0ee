package org.gridrun.engine.config;

import java.util.Objects;

/**
 * One configuration key: its name, type, default value and help text.
 *
 * <p>The trainer's schema and every compressor's parameters are lists of keys; a {@code list} command prints them
 * and the grid language checks values against {@link #type()}.
 *
 * @param name         the key as written in grids and {@code experiment.yaml}
 * @param type         the type values must have
 * @param defaultValue the value when none is given (String, Long, Double or Boolean); it conforms to the type
 * @param help         one sentence for users
 */
public record ConfigKey(String name, ValueType type, Object defaultValue, String help) {
    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(help, "help");
        type.problem(defaultValue).ifPresent(p -> {
            throw new IllegalArgumentException("default of " + name + " " + p);
        });
    }
}
