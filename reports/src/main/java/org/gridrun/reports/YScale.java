package org.gridrun.reports;

import java.util.Locale;
import java.util.regex.Pattern;
import org.knowm.xchart.XYChart;

/**
 * The value axis of a figure, decided by the mean curves of the lines that did not diverge: their range with a margin
 * (a quarter of the span on a linear axis, a factor of 3 on a log one), and a log scale for losses and variances whose
 * means span more than a decade.
 *
 * <p>Bands are clamped to this range ({@link #clamp}), so the wide 95% intervals of two seeds never squeeze the means
 * into a line; a diverged line is drawn only while it stays inside it ({@link #contains}), so one run whose loss
 * explodes never flattens everyone else's curves.
 *
 * @param log whether the axis is logarithmic
 * @param min the lower end of the range ({@code NaN} when there is none)
 * @param max the upper end
 */
record YScale(boolean log, double min, double max) {
    /** Metric names drawn on a log axis when their values span more than {@link #DECADE}. */
    static final Pattern LOG_METRICS = Pattern.compile("(?i).*(loss|var|nb_error|ppl).*");
    static final double DECADE = 10;
    private static final double LOG_MARGIN = 3;
    private static final double LINEAR_MARGIN = 0.25;

    /** The axis of {@code metric} given the mean values of the lines that set its range. */
    static YScale of(String metric, double[] values) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            if (Double.isFinite(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        if (min > max) {
            return new YScale(false, Double.NaN, Double.NaN);
        }
        boolean log = LOG_METRICS.matcher(metric.toLowerCase(Locale.ROOT)).matches() && min > 0
                && max / min > DECADE;
        if (log) {
            return new YScale(true, min / LOG_MARGIN, max * LOG_MARGIN);
        }
        double margin = max > min ? (max - min) * LINEAR_MARGIN : Math.max(Math.abs(max) * LINEAR_MARGIN, 1e-12);
        return new YScale(false, min - margin, max + margin);
    }

    /** Whether {@code value} lies inside the range (always false for a non-finite value, true with no range). */
    boolean contains(double value) {
        if (!Double.isFinite(value)) {
            return false;
        }
        return Double.isNaN(min) || value >= min && value <= max;
    }

    /** {@code value} moved into the range (unchanged with no range). */
    double clamp(double value) {
        return Double.isNaN(min) ? value : Math.max(min, Math.min(max, value));
    }

    /** Sets {@code chart}'s value axis to this scale. */
    void apply(XYChart chart) {
        chart.getStyler().setYAxisLogarithmic(log);
    }
}
