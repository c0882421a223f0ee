package org.gridrun.reports.paper;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Typed reads of one mapping of a spec file; a missing, unknown or ill-typed field is a problem at its position,
 * and the read goes on with a placeholder so that every problem of the file is reported at once.
 */
final class SpecFields {
    private final SpecNode.MapNode map;
    private final String what;
    private final SpecProblems problems;

    private SpecFields(SpecNode.MapNode map, String what, SpecProblems problems) {
        this.map = map;
        this.what = what;
        this.problems = problems;
    }

    /** The fields of {@code node}, which must be a mapping whose keys are all in {@code known}; else empty. */
    static Optional<SpecFields> of(SpecNode node, String what, Set<String> known, SpecProblems problems) {
        if (!(node instanceof SpecNode.MapNode map)) {
            problems.add(node, what + " must be a mapping, found " + node.describe());
            return Optional.empty();
        }
        map.keys().forEach((name, key) -> {
            if (!known.contains(name)) {
                problems.add(key, "unknown field '" + name + "' in " + what + " (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        });
        return Optional.of(new SpecFields(map, what, problems));
    }

    SpecNode.MapNode node() {
        return map;
    }

    Optional<SpecNode> get(String key) {
        return Optional.ofNullable(map.entries().get(key));
    }

    /** A required scalar; {@code ""} after reporting when absent. */
    String string(String key) {
        return optionalString(key).orElseGet(() -> {
            problems.add(map, what + " needs '" + key + "'");
            return "";
        });
    }

    Optional<String> optionalString(String key) {
        return get(key).map(node -> {
            if (node instanceof SpecNode.Scalar s && s.text() != null) {
                return s.text();
            }
            problems.add(node, key + " must be a single value, found " + node.describe());
            return "";
        });
    }

    boolean bool(String key, boolean absent) {
        return optionalString(key).map(text -> switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> {
                problems.add(map.entries().get(key), key + " must be true or false, found '" + text + "'");
                yield absent;
            }
        }).orElse(absent);
    }

    double number(String key, double absent) {
        return optionalString(key).map(text -> parse(map.entries().get(key), key, text)).orElse(absent);
    }

    int integer(String key, int absent, int min) {
        double value = number(key, absent);
        if (value != Math.rint(value) || value < min) {
            problems.add(map.entries().get(key), key + " must be a whole number of at least " + min
                    + ", found " + value);
            return absent;
        }
        return (int) value;
    }

    /** A scalar or a list of scalars, as a list; empty when absent. */
    List<String> strings(String key) {
        Optional<SpecNode> node = get(key);
        if (node.isEmpty()) {
            return List.of();
        }
        if (node.get() instanceof SpecNode.Scalar s && s.text() != null) {
            return List.of(s.text());
        }
        List<String> out = new ArrayList<>();
        if (node.get() instanceof SpecNode.ListNode list) {
            for (SpecNode item : list.items()) {
                if (item instanceof SpecNode.Scalar s && s.text() != null) {
                    out.add(s.text());
                } else {
                    problems.add(item, key + " lists single values, found " + item.describe());
                }
            }
        } else {
            problems.add(node.get(), key + " must be a value or a list of values, found " + node.get().describe());
        }
        return out;
    }

    /** A list of numbers, or null when absent. */
    List<Double> numbers(String key) {
        if (get(key).isEmpty()) {
            return null;
        }
        List<Double> out = new ArrayList<>();
        for (String text : strings(key)) {
            out.add(parse(map.entries().get(key), key, text));
        }
        return out;
    }

    private double parse(SpecNode at, String key, String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            problems.add(at, key + " must be a number, found '" + text + "'");
            return Double.NaN;
        }
    }
}
