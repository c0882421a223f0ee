package org.gridrun.analysis;

import java.util.List;
import org.gridrun.engine.run.MetricRecord;

/**
 * The summary of one metric in one run: its last value, its extremes, and the mean of its last evaluations.
 *
 * <p>Papers report a method's accuracy as the mean of the last few evaluations rather than the very last one, which
 * a single noisy evaluation would decide ({@code lastK} is that mean). Non-finite values (a diverged loss) take part
 * as they are: {@code min}, {@code max} and the means become {@code NaN} or infinite, so a diverged run never looks
 * good. An empty series has every value {@code NaN} and {@code count} 0.
 *
 * @param count    the number of values in the series
 * @param last     the value at the last step
 * @param lastStep the last step ({@code -1} for an empty series)
 * @param min      the smallest value
 * @param max      the largest value
 * @param k        how many of the last values {@code lastK} averages (fewer when the series is shorter)
 * @param lastK    the mean of the last {@code k} values
 */
public record RunSummary(int count, double last, long lastStep, double min, double max, int k, double lastK) {

    /** Summarises {@code series}, ordered by step, with the mean of its last {@code k} values; {@code k >= 1}. */
    public static RunSummary of(List<MetricRecord> series, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, found " + k);
        }
        int n = series.size();
        if (n == 0) {
            return new RunSummary(0, Double.NaN, -1, Double.NaN, Double.NaN, 0, Double.NaN);
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        boolean nan = false;
        for (MetricRecord r : series) {
            nan |= Double.isNaN(r.value());
            min = Math.min(min, r.value());
            max = Math.max(max, r.value());
        }
        int used = Math.min(k, n);
        double sum = 0;
        for (int i = n - used; i < n; i++) {
            sum += series.get(i).value();
        }
        MetricRecord last = series.get(n - 1);
        return new RunSummary(n, last.value(), last.step(), nan ? Double.NaN : min, nan ? Double.NaN : max, used,
                sum / used);
    }
}
