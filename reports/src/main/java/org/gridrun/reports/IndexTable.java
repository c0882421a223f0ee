package org.gridrun.reports;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.gridrun.analysis.RunSummary;

/**
 * The index's table of experiments: name (linking to its page), state, every param, and for every metric its last
 * value and the mean of its last {@value ExperimentSummary#LAST_K}; the same rows go to {@code index.csv}.
 *
 * @param header the column names
 * @param rows   one row per experiment
 */
record IndexTable(List<String> header, List<List<Cell>> rows) {
    static final String LAST = " last";
    static final String MEAN_LAST_K = " mean" + ExperimentSummary.LAST_K;

    /** The table of {@code experiments}. */
    static IndexTable of(List<ExperimentSummary> experiments) {
        Set<String> params = new LinkedHashSet<>();
        Set<String> metrics = new TreeSet<>();
        experiments.forEach(e -> {
            params.addAll(e.experiment().params().keySet());
            metrics.addAll(e.metrics().keySet());
        });
        List<String> header = new ArrayList<>(List.of("name", "state"));
        header.addAll(params);
        metrics.forEach(m -> header.addAll(List.of(m + LAST, m + MEAN_LAST_K)));
        List<List<Cell>> rows = new ArrayList<>();
        for (ExperimentSummary e : experiments) {
            List<Cell> row = new ArrayList<>();
            row.add(Cell.link(e.experiment().name(), ExperimentWriter.DIR + "/" + e.slug() + ".html"));
            row.add(Cell.text(GroupRow.state(e.experiment().state())));
            params.forEach(p -> row.add(param(e.experiment().params().get(p), e.experiment().params().containsKey(p))));
            for (String m : metrics) {
                RunSummary s = e.metrics().get(m);
                boolean present = s != null && s.count() > 0;
                row.add(Cell.measured(present ? s.last() : 0, present));
                row.add(Cell.measured(present ? s.lastK() : 0, present));
            }
            rows.add(row);
        }
        return new IndexTable(header, rows);
    }

    /** The table as CSV; the name column holds the experiment's name, numbers are at full precision. */
    String csv() {
        return Csv.render(header, rows.stream().map(r -> r.stream().map(Cell::csv).toList()).toList());
    }

    private static Cell param(Object value, boolean present) {
        if (value instanceof Number n) {
            return new Cell(Objects.toString(value), null, n.doubleValue());
        }
        return Cell.text(present ? Objects.toString(value) : "");
    }
}
