package org.gridrun.reports;

import java.util.Locale;
import java.util.regex.Pattern;
import org.knowm.xchart.XYChart;

/**
 * The value axis of a figure, decided by the lines that did not diverge: their range, and a log scale for losses and
 * variances that span more than a decade.
 *
 * <p>A diverged line is drawn only while it stays inside this range ({@link #contains}), so one run whose loss
 * explodes never flattens everyone else's curves into a line at the bottom.
 *
 * @param log whether the axis is logarithmic
 * @param min the smallest value of the lines that set the range ({@code NaN} when there is none)
 * @param max the largest
 */
record YScale(boolean log, double min, double max) {
    /** Metric names drawn on a log axis when their values span more than {@link #DECADE}. */
    static final Pattern LOG_METRICS = Pattern.compile("(?i).*(loss|var|nb_error).*");
    static final double DECADE = 10;

    /** The axis of {@code metric} given the values of the lines that set its range. */
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
        return new YScale(log, min, max);
    }

    /** Whether {@code value} lies inside the range (always false for a non-finite value, true with no range). */
    boolean contains(double value) {
        if (!Double.isFinite(value)) {
            return false;
        }
        if (Double.isNaN(min)) {
            return true;
        }
        double slack = (max - min) * 0.05;
        return value >= min - slack && value <= max + slack && (!log || value > 0);
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
