package org.gridrun.grids;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A small trainer schema for tests: integer, number, boolean (a flag '' is true, as the trainer's), flag, choice
 * and free-text keys.
 */
final class TestSchema implements KeySchema {
    private static final List<String> METHODS = List.of("none", "qsgd", "qinf", "trn", "nuq", "alq", "alq_nb",
            "amq", "amq_nb", "powersgd");

    private final Map<String, Function<Object, Optional<String>>> rules = Map.ofEntries(
            Map.entry("method", TestSchema::method),
            Map.entry("bits", TestSchema::integer),
            Map.entry("bucket_size", TestSchema::integer),
            Map.entry("batch_size", TestSchema::integer),
            Map.entry("cd_epochs", TestSchema::integer),
            Map.entry("amq_epochs", TestSchema::integer),
            Map.entry("amq_lr", TestSchema::number),
            Map.entry("mul", TestSchema::number),
            Map.entry("symmetric", TestSchema::bool),
            Map.entry("inv", TestSchema::bool),
            Map.entry("niters", TestSchema::integer),
            Map.entry("seed", TestSchema::integer),
            Map.entry("lr", TestSchema::number),
            Map.entry("momentum", TestSchema::number),
            Map.entry("nesterov", TestSchema::bool),
            Map.entry("flag", TestSchema::flag),
            Map.entry("dataset", TestSchema::text),
            Map.entry("model", TestSchema::text),
            Map.entry("note", TestSchema::text));

    @Override
    public Set<String> keys() {
        return rules.keySet();
    }

    @Override
    public Optional<String> problem(String key, Object value) {
        return rules.get(key).apply(value);
    }

    @Override
    public List<String> choices(String key) {
        return key.equals("model") ? List.of("mlp", "lenet5", "resnet20") : List.of();
    }

    private static Optional<String> integer(Object value) {
        return value instanceof Long ? Optional.empty() : found("must be an integer", value);
    }

    private static Optional<String> number(Object value) {
        return value instanceof Long || value instanceof Double ? Optional.empty() : found("must be a number", value);
    }

    private static Optional<String> bool(Object value) {
        return value instanceof Boolean || "".equals(value) ? Optional.empty()
                : found("must be true or false (or '' for true)", value);
    }

    private static Optional<String> flag(Object value) {
        return "".equals(value) ? Optional.empty() : found("is a flag and takes no value (write '')", value);
    }

    private static Optional<String> method(Object value) {
        return METHODS.contains(value) ? Optional.empty()
                : found("must be one of " + String.join(", ", METHODS), value);
    }

    private static Optional<String> text(Object value) {
        return Optional.empty();
    }

    private static Optional<String> found(String rule, Object value) {
        return Optional.of(rule + ", found '" + value + "'");
    }
}
