package org.gridrun.analysis;

import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Welch's two-sample t-test: do two groups (two methods over their seeds) differ in mean, without assuming equal
 * variances?
 *
 * <p>{@code t = (mean(a) − mean(b)) / sqrt(var(a)/n_a + var(b)/n_b)} with sample variances, degrees of freedom by
 * Welch–Satterthwaite, and the two-sided p-value from Student's t with those degrees of freedom (Commons Math).
 * Each group needs at least two values; two groups with no variance at all have no test ({@code NaN} throughout).
 *
 * @param t                the t statistic, positive when {@code a}'s mean is larger
 * @param degreesOfFreedom the Welch–Satterthwaite degrees of freedom (not an integer in general)
 * @param pValue           the two-sided p-value
 */
public record WelchTest(double t, double degreesOfFreedom, double pValue) {

    /** Tests whether {@code a} and {@code b} have the same mean. */
    public static WelchTest of(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            throw new IllegalArgumentException("Welch's t-test needs at least two values per group, found "
                    + a.length + " and " + b.length);
        }
        double va = StatUtils.variance(a) / a.length;
        double vb = StatUtils.variance(b) / b.length;
        if (va + vb == 0) {
            return new WelchTest(Double.NaN, Double.NaN, Double.NaN);
        }
        double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
        TTest test = new TTest();
        return new WelchTest(test.t(a, b), df, test.tTest(a, b));
    }

    /** Whether the difference is significant at level {@code alpha} (two-sided). */
    public boolean significant(double alpha) {
        return pValue < alpha;
    }
}
