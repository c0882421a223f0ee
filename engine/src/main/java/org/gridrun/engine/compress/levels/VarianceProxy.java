package org.gridrun.engine.compress.levels;

/**
 * The variance that unbiased stochastic rounding to a set of levels adds, averaged over a density, and its gradient.
 *
 * <p>A value r in [l_j, l_{j+1}] rounds up with probability (r - l_j) / (l_{j+1} - l_j), which adds variance
 * (r - l_j)(l_{j+1} - r) = -r^2 + (l_j + l_{j+1}) r - l_j l_{j+1}. So with partial moments M0, M1, M2 over each
 * interval
 * <pre>
 *   V(l) = sum_j [ -M2 + (l_j + l_{j+1}) M1 - l_j l_{j+1} M0 ]  over [l_j, l_{j+1}].
 * </pre>
 * The integrand vanishes at both ends of its interval, so moving a level only changes the integrands touching it:
 * <pre>
 *   dV/dl_j = integral over [l_{j-1}, l_j] of (r - l_{j-1}) f  -  integral over [l_j, l_{j+1}] of (l_{j+1} - r) f
 *           = (M1 - l_{j-1} M0)[l_{j-1}, l_j]  -  (l_{j+1} M0 - M1)[l_j, l_{j+1}],
 * </pre>
 * the first term absent for the first level and the second for the last. Only mass between the first and last level
 * counts; the fitters keep them at the ends of the support.
 */
public final class VarianceProxy {
    private VarianceProxy() {
    }

    /**
     * V(levels) under density f.
     *
     * @param levels sorted ascending (ties allowed), at least two
     * @throws IllegalArgumentException if levels are fewer than two, not finite, or not sorted
     */
    public static double value(Density f, double[] levels) {
        checkLevels(levels);
        double v = 0;
        for (int j = 0; j + 1 < levels.length; j++) {
            v += interval(f, levels[j], levels[j + 1]);
        }
        return v;
    }

    /**
     * Writes dV/dl_j for every level j, the ends included, into {@code out}.
     *
     * @param out an array as long as {@code levels}
     * @throws IllegalArgumentException as {@link #value}, or if {@code out} has the wrong length
     */
    public static void gradient(Density f, double[] levels, double[] out) {
        checkLevels(levels);
        if (out.length != levels.length) {
            throw new IllegalArgumentException(
                    "out must be as long as levels (" + levels.length + "), found " + out.length);
        }
        java.util.Arrays.fill(out, 0.0);
        for (int j = 0; j + 1 < levels.length; j++) {
            double a = levels[j];
            double b = levels[j + 1];
            double m0 = f.mass(a, b);
            double m1 = f.firstMoment(a, b);
            out[j] -= b * m0 - m1;
            out[j + 1] += m1 - a * m0;
        }
    }

    /** The integral of (r - a)(b - r) f(r) over [a, b]. */
    static double interval(Density f, double a, double b) {
        if (b <= a) {
            return 0.0;
        }
        return -f.secondMoment(a, b) + (a + b) * f.firstMoment(a, b) - a * b * f.mass(a, b);
    }

    static void checkLevels(double[] levels) {
        if (levels.length < 2) {
            throw new IllegalArgumentException("levels must hold at least 2 values, found " + levels.length);
        }
        for (int j = 0; j < levels.length; j++) {
            if (!Double.isFinite(levels[j]) || (j > 0 && levels[j] < levels[j - 1])) {
                throw new IllegalArgumentException("levels must be finite and sorted ascending, found "
                        + levels[j] + " at index " + j + (j > 0 ? " after " + levels[j - 1] : ""));
            }
        }
    }
}
