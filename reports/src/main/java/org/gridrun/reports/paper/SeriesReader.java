package org.gridrun.reports.paper;

import java.awt.Color;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads lists of series: {@code {label, colour, match: {param: value, …}}}, labels unique within a list.
 */
final class SeriesReader {
    private static final Set<String> FIELDS = Set.of("label", "colour", "color", "match");

    private final SpecProblems problems;

    SeriesReader(SpecProblems problems) {
        this.problems = problems;
    }

    List<SeriesSpec> list(SpecNode node, String what) {
        if (!(node instanceof SpecNode.ListNode list)) {
            problems.add(node, what + " must be a list of series, found " + node.describe());
            return List.of();
        }
        List<SeriesSpec> out = new ArrayList<>();
        Set<String> labels = new HashSet<>();
        for (SpecNode item : list.items()) {
            SpecFields.of(item, "a series", FIELDS, problems).ifPresent(f -> {
                SeriesSpec s = series(f);
                if (!labels.add(s.label())) {
                    problems.add(item, "series label '" + s.label() + "' is used twice in " + what);
                }
                out.add(s);
            });
        }
        return out;
    }

    private SeriesSpec series(SpecFields f) {
        String label = f.string("label");
        String hex = f.optionalString("colour").or(() -> f.optionalString("color")).orElse(null);
        Color colour = Color.GRAY;
        if (hex == null) {
            problems.add(f.node(), "series '" + label + "' needs 'colour' (#rrggbb), so every figure draws it alike");
        } else if (!hex.matches("#[0-9a-fA-F]{6}")) {
            problems.add(f.get("colour").or(() -> f.get("color")).orElseThrow(),
                    "colour must be #rrggbb, found '" + hex + "'");
        } else {
            colour = Color.decode(hex);
        }
        return new SeriesSpec(label, colour, match(f, label), f.node().line());
    }

    private Map<String, String> match(SpecFields f, String label) {
        Map<String, String> match = new LinkedHashMap<>();
        SpecNode node = f.get("match").orElse(null);
        if (!(node instanceof SpecNode.MapNode map) || map.entries().isEmpty()) {
            problems.add(node == null ? f.node() : node, "series '" + label
                    + "' needs 'match': a mapping of params to values, e.g. {method: alq}");
            return match;
        }
        map.entries().forEach((param, value) -> {
            if (value instanceof SpecNode.Scalar s && s.text() != null) {
                match.put(param, s.text());
            } else {
                problems.add(value, "match." + param + " must be a single value, found " + value.describe());
            }
        });
        return match;
    }
}
