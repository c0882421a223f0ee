package org.gridrun.reports.paper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.RunSummary;
import org.gridrun.analysis.SeedSummary;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.RunState;

/**
 * Computes a {@link PaperTable} from the store: per series and column, each matched run's value (see
 * {@link ColumnSpec}), then {@link SeedSummary} over the runs. A run lacking a column's metric is left out of that
 * cell with a warning; a series with no run is a row of dashes with a warning; a run that ended FAILED, KILLED or
 * DIVERGED is counted with a warning that names its state.
 */
final class TableBuilder {
    private final ResultsStore store;
    private final int last;
    private final Warnings warnings;

    TableBuilder(ResultsStore store, int last, Warnings warnings) {
        this.store = store;
        this.last = last;
        this.warnings = warnings;
    }

    PaperTable build(TableSpec spec) {
        return build(spec, "table '" + spec.name() + "'");
    }

    /** Builds {@code spec}'s table; warnings name it as {@code what}. */
    PaperTable build(TableSpec spec, String what) {
        List<StoredExperiment> experiments = SeriesMatch.experiments(store, spec.source());
        List<PaperTable.Row> rows = new ArrayList<>();
        for (SeriesSpec series : spec.rows()) {
            List<StoredExperiment> matched = SeriesMatch.of(series, experiments);
            if (matched.isEmpty()) {
                warnings.add(what, series, noExperiment(series, spec.source()));
            }
            for (StoredExperiment run : matched) {
                if (run.state() != null && run.state().isTerminal() && run.state() != RunState.COMPLETED) {
                    warnings.add(what, series, "experiment " + run.name() + " ended " + run.state() + "; its "
                            + "numbers up to then are in the row (resubmit it, or leave it out with match)");
                }
            }
            List<SeedSummary> cells = new ArrayList<>();
            for (ColumnSpec column : spec.columns()) {
                cells.add(cell(what, series, column, matched, spec.trainSize()));
            }
            rows.add(new PaperTable.Row(series.label(), cells));
        }
        return new PaperTable(spec.name(), spec.title(), spec.columns(), rows);
    }

    static String noExperiment(SeriesSpec series, SourceSpec source) {
        return "no experiment of grid " + source.grid() + " run(s) " + String.join(", ", source.runs())
                + " matches " + series.match() + "; left out (run the grid, or fix match)";
    }

    private SeedSummary cell(String what, SeriesSpec series, ColumnSpec column, List<StoredExperiment> runs,
                             int trainSize) {
        double[] values = new double[runs.size()];
        int n = 0;
        for (StoredExperiment run : runs) {
            double value = runValue(run, column, trainSize);
            if (Double.isNaN(value)) {
                warnings.add(what, series, "experiment " + run.name() + " has no " + String.join("/",
                        column.metrics()) + " records; left out of column '" + column.title() + "'");
            } else {
                values[n++] = value;
            }
        }
        return SeedSummary.of(Arrays.copyOf(values, n));
    }

    /** One run's value of {@code column}; NaN when a metric is missing. */
    double runValue(StoredExperiment run, ColumnSpec column, int trainSize) {
        double sum = 0;
        for (String metric : column.metrics()) {
            List<MetricRecord> series = store.series(run.id(), metric);
            if (series.isEmpty()) {
                return Double.NaN;
            }
            sum += column.stat() == ColumnSpec.Stat.LAST ? RunSummary.of(series, last).lastK() : mean(series);
        }
        double scale = column.perEpoch() ? column.scale() * iterationsPerEpoch(run, trainSize) : column.scale();
        return sum * scale;
    }

    /** {@code train_size / (batch_size · ngpu)}: the iterations in which the workers see every example once. */
    static double iterationsPerEpoch(StoredExperiment run, int trainSize) {
        return trainSize / (configNumber(run, "batch_size") * configNumber(run, "ngpu"));
    }

    private static double configNumber(StoredExperiment run, String key) {
        Object value = run.config().get(key);
        if (value == null) {
            throw new IllegalStateException("experiment " + run.name() + " has no " + key + " in its config");
        }
        return Double.parseDouble(value.toString());
    }

    private static double mean(List<MetricRecord> series) {
        return series.stream().mapToDouble(MetricRecord::value).average().orElse(Double.NaN);
    }
}
