package org.gridrun.engine.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.ConfigValues;

/**
 * Values for a list of {@link ConfigKey}s, defaults filled in and types checked, with typed getters and range checks
 * whose failures name the key, the rule and the value found.
 *
 * <p>The trainer's configuration and each compressor's parameters are read through it, so every component reports
 * errors the same way: {@code bits must be in [1, 8], found 0}.
 */
public final class Settings {
    private final Map<String, ConfigKey> keys = new LinkedHashMap<>();
    private final Map<String, Object> values = new LinkedHashMap<>();

    private Settings(List<ConfigKey> schema, Map<String, ?> given, String unknownWhat) {
        schema.forEach(k -> keys.put(k.name(), k));
        given.keySet().forEach(name -> {
            if (!keys.containsKey(name)) {
                throw new ConfigException(unknown(unknownWhat, name));
            }
        });
        for (ConfigKey key : schema) {
            Object value = given.containsKey(key.name()) ? ConfigValues.normalise(given.get(key.name()))
                    : key.defaultValue();
            key.type().problem(value).ifPresent(p -> {
                throw new ConfigException(key.name() + " " + p);
            });
            values.put(key.name(), value);
        }
    }

    /**
     * Every key of {@code schema} in schema order, the value from {@code given} where present, else the default.
     *
     * <p>A key of {@code given} outside the schema fails as an unknown {@code unknownWhat} (e.g. "key" or
     * "qsgd parameter") with a did-you-mean hint; a value of the wrong type fails naming the key.
     */
    public static Settings resolve(List<ConfigKey> schema, Map<String, ?> given, String unknownWhat) {
        return new Settings(schema, given, unknownWhat);
    }

    /** The resolved values in schema order (unmodifiable). */
    public Map<String, Object> values() {
        return Collections.unmodifiableMap(values);
    }

    public String string(String name) {
        return String.valueOf(get(name));
    }

    public long longValue(String name) {
        return ((Number) get(name)).longValue();
    }

    public double doubleValue(String name) {
        return ((Number) get(name)).doubleValue();
    }

    /** The value of a {@code BOOL} key; a flag written without a value ({@code ''}) is true. */
    public boolean bool(String name) {
        Object value = get(name);
        return "".equals(value) || (Boolean) value;
    }

    /** The value of an {@code INT} key that must lie in [min, max], failing with {@code name must be in [min, max]}. */
    public int intIn(String name, int min, int max) {
        long v = longValue(name);
        if (v < min || v > max) {
            throw new ConfigException(name + " must be in [" + min + ", " + max + "], found " + v);
        }
        return (int) v;
    }

    /** The value of an {@code INT} key that must be at least 1 (and fit an int). */
    public int positiveInt(String name) {
        long v = longValue(name);
        if (v < 1) {
            throw new ConfigException(name + " must be positive, found " + v);
        }
        if (v > Integer.MAX_VALUE) {
            throw new ConfigException(name + " must be at most " + Integer.MAX_VALUE + ", found " + v);
        }
        return (int) v;
    }

    /** The value of a {@code DOUBLE} key that must be finite and greater than zero. */
    public double positiveDouble(String name) {
        double v = doubleValue(name);
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new ConfigException(name + " must be positive, found " + ValueType.show(get(name)));
        }
        return v;
    }

    /** The value of a {@code DOUBLE} key that must be finite and not negative. */
    public double nonNegativeDouble(String name) {
        double v = doubleValue(name);
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new ConfigException(name + " must not be negative, found " + ValueType.show(get(name)));
        }
        return v;
    }

    /** The value of a {@code DOUBLE} key that must lie in [min, max). */
    public double doubleInHalfOpen(String name, double min, double max) {
        double v = doubleValue(name);
        if (!(v >= min && v < max)) {
            throw new ConfigException(name + " must be in [" + bound(min) + ", " + bound(max) + "), found "
                    + ValueType.show(get(name)));
        }
        return v;
    }

    /** The value of a {@code STRING} key that must be one of {@code choices}. */
    public String oneOf(String name, List<String> choices) {
        String v = string(name);
        if (!choices.contains(v)) {
            throw new ConfigException(name + " must be one of " + choices + ", found '" + v + "'");
        }
        return v;
    }

    /** The value of an {@code INT_LIST} key whose every element must be positive. */
    public List<Integer> positiveIntList(String name) {
        return intList(name, 1, "positive");
    }

    /** The value of an {@code INT_LIST} key whose every element must be 0 or more. */
    public List<Integer> nonNegativeIntList(String name) {
        return intList(name, 0, "non-negative");
    }

    private List<Integer> intList(String name, long min, String what) {
        Object value = get(name);
        List<Long> list = value instanceof String s ? ValueType.parseList(s) : List.of((Long) value);
        for (long v : list) {
            if (v < min || v > Integer.MAX_VALUE) {
                throw new ConfigException(name + " must hold " + what + " integers, found " + ValueType.show(value));
            }
        }
        return list.stream().map(Long::intValue).toList();
    }

    private Object get(String name) {
        if (!values.containsKey(name)) {
            throw new IllegalArgumentException("no such key: " + name);
        }
        return values.get(name);
    }

    private String unknown(String what, String name) {
        return "unknown " + what + " '" + name + "'; known: " + String.join(", ", keys.keySet());
    }

    private static String bound(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
