package org.gridrun.analysis;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;

/**
 * The summary of one quantity measured over several seeds: count, mean, spread and a 95% confidence interval.
 *
 * <p>The standard deviation is the sample one (divisor {@code n - 1}), the standard error is {@code std / sqrt(n)},
 * and the interval is Student's t: {@code mean ± t(0.975, n - 1) · se}.
 *
 * <p>With one value the spread is undefined: {@code std}, {@code standardError} and {@code halfWidth95} are
 * {@code NaN}, and so is every field but {@code n} for no values at all.
 *
 * @param n             the number of values
 * @param mean          their mean
 * @param std           their sample standard deviation
 * @param standardError the standard error of the mean
 * @param halfWidth95   the half-width of the 95% t-interval around the mean
 */
public record SeedSummary(int n, double mean, double std, double standardError, double halfWidth95) {
    /** The summary of no values. */
    public static final SeedSummary EMPTY = new SeedSummary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    private static final double UPPER_TAIL_95 = 0.975;

    /** Summarises {@code values}. */
    public static SeedSummary of(double[] values) {
        int n = values.length;
        if (n == 0) {
            return EMPTY;
        }
        double mean = StatUtils.mean(values);
        if (n == 1) {
            return new SeedSummary(1, mean, Double.NaN, Double.NaN, Double.NaN);
        }
        double std = Math.sqrt(StatUtils.variance(values, mean));
        double se = std / Math.sqrt(n);
        double t = new TDistribution(null, n - 1).inverseCumulativeProbability(UPPER_TAIL_95);
        return new SeedSummary(n, mean, std, se, t * se);
    }

    /** The lower end of the 95% interval ({@code NaN} below two values). */
    public double lower95() {
        return mean - halfWidth95;
    }

    /** The upper end of the 95% interval ({@code NaN} below two values). */
    public double upper95() {
        return mean + halfWidth95;
    }
}
