package org.gridrun.engine.compress.levels;

/**
 * ALQ's level fitting as the authors' code does it ({@code level_fit: authors}): each interior level takes a few
 * finite-difference gradient steps on the {@link VarianceProxy} between its neighbours, instead of moving to the
 * exact minimiser ({@link AlqCoordinateDescent}).
 *
 * <p>Following {@code alq} and {@code finite_diff_gradient_descent} in the authors' {@code nuq/quantize.py}: with
 * neighbours a &lt; b fixed, the level x takes {@value #STEPS} steps {@code x ← x − V'(x)}, V' the central difference
 * {@code (V(x + ε) − V(x − ε))/(2ε)} with {@code ε = (b − a)/1000} and a step size of 1, V the proxy of the two
 * intervals x touches. The proxy's derivative is a probability mass times a width, far below 1 on gradients'
 * normalised values, so the levels move little from where they start: what this reproduces is the paper's table, not
 * the paper's objective. gridrun keeps each step inside [a, b] (their code asserts it). With {@code inv} the level is
 * set by the inverse-cdf formula, which is exact, as in their code. Starts, symmetric fitting and the choice among
 * the starts by the proxy of the final levels are {@link AlqCoordinateDescent}'s, which are the authors'; their
 * code takes the quantile start from the norm-based mixture even when fitting the norm-less density, gridrun from
 * the density it fits.
 */
public final class AlqFiniteDifference extends BaseLevelFitter {
    /** Gradient steps per level per sweep, as in the authors' {@code finite_diff_gradient_descent}. */
    static final int STEPS = 10;

    private final int epochs;
    private final boolean inverseCdf;
    private final boolean symmetric;

    /**
     * Creates the fitter.
     *
     * @param epochs sweeps over the interior levels ({@code cd_epochs}), at least 1
     * @param inverseCdf whether to set each level by the inverse-cdf formula (exact) instead of the steps
     * @param symmetric whether to fit the upper half behind a fixed 0 and mirror it
     * @throws IllegalArgumentException if epochs is below 1
     */
    public AlqFiniteDifference(int epochs, boolean inverseCdf, boolean symmetric) {
        checkEpochs(epochs, 1);
        this.epochs = epochs;
        this.inverseCdf = inverseCdf;
        this.symmetric = symmetric;
    }

    @Override
    FittedLevels fitChecked(Density density, int levelCount) {
        return bestOfAlqStarts(density, levelCount, epochs, symmetric, (f, levels, j) -> inverseCdf
                ? AlqCoordinateDescent.minimiser(f, levels[j - 1], levels[j + 1], true)
                : descend(f, levels[j - 1], levels[j], levels[j + 1]));
    }

    /** The level between {@code a} and {@code b} after {@link #STEPS} finite-difference steps from {@code x}. */
    static double descend(Density density, double a, double x, double b) {
        double eps = (b - a) / 1000;
        if (!(eps > 0)) {
            return x;
        }
        for (int k = 0; k < STEPS; k++) {
            double slope = (around(density, a, x + eps, b) - around(density, a, x - eps, b)) / (2 * eps);
            x = Math.max(a, Math.min(b, x - slope));
        }
        return x;
    }

    /** The proxy of the two intervals a level at {@code x} between {@code a} and {@code b} touches. */
    private static double around(Density density, double a, double x, double b) {
        return VarianceProxy.interval(density, a, x) + VarianceProxy.interval(density, x, b);
    }
}
