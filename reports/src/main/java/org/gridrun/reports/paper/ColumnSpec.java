package org.gridrun.reports.paper;

import java.util.List;

/**
 * One column of a table: a per-run number computed from one or more metrics, then summarised over seeds.
 *
 * <p>Per run, each metric of {@code metrics} is reduced by {@code stat} and the results are summed (so the time per
 * batch can be {@code compute_ms + encode_ms + decode_ms}); the sum is multiplied by {@code scale} and, with
 * {@code perEpoch}, by the iterations of one epoch, {@code train_size / (batch_size · ngpu)} from the run's config.
 * The cell is mean ± sd of that number over the series' seeds.
 *
 * @param title    the column header
 * @param metrics  the metrics summed
 * @param stat     how a run's series becomes one number
 * @param scale    a factor, e.g. 100 for a percentage or 1e-6 for megabytes
 * @param perEpoch whether to multiply by the iterations per epoch
 * @param decimals the decimals shown
 */
public record ColumnSpec(String title, List<String> metrics, Stat stat, double scale, boolean perEpoch,
                         int decimals) {
    public ColumnSpec {
        metrics = List.copyOf(metrics);
    }

    /** How a run's series becomes one number. */
    public enum Stat {
        /** The mean of the last evaluations ({@code RunSummary.lastK} with the spec's {@code last}). */
        LAST,
        /** The mean over the whole series, e.g. the mean bytes sent per step. */
        MEAN
    }
}
