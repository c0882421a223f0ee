package org.gridrun.reports.paper;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a table's columns: {@code {title, metric: M | [M1, M2], stat: last | mean, scale, per_epoch, decimals}}.
 */
final class ColumnReader {
    private static final Set<String> FIELDS = Set.of("title", "metric", "stat", "scale", "per_epoch", "decimals");

    private final SpecProblems problems;

    ColumnReader(SpecProblems problems) {
        this.problems = problems;
    }

    List<ColumnSpec> list(SpecNode node) {
        if (!(node instanceof SpecNode.ListNode list) || list.items().isEmpty()) {
            problems.add(node, "columns must be a non-empty list, found " + node.describe());
            return List.of();
        }
        List<ColumnSpec> out = new ArrayList<>();
        list.items().forEach(item -> SpecFields.of(item, "a column", FIELDS, problems)
                .ifPresent(f -> out.add(column(f))));
        return out;
    }

    private ColumnSpec column(SpecFields f) {
        List<String> metrics = f.strings("metric");
        if (metrics.isEmpty()) {
            problems.add(f.node(), "a column needs 'metric': a metric name or a list of them (summed)");
        }
        String stat = f.optionalString("stat").orElse("last");
        ColumnSpec.Stat parsed = ColumnSpec.Stat.LAST;
        try {
            parsed = ColumnSpec.Stat.valueOf(stat.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.add(f.get("stat").orElseThrow(), "stat must be last or mean, found '" + stat + "'");
        }
        return new ColumnSpec(f.optionalString("title").orElse(String.join("+", metrics)), metrics, parsed,
                f.number("scale", 1), f.bool("per_epoch", false), f.integer("decimals", 2, 0));
    }
}
