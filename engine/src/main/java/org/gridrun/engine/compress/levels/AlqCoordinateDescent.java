package org.gridrun.engine.compress.levels;

import org.apache.commons.math3.analysis.solvers.BrentSolver;

/**
 * ALQ's level fitting: coordinate descent that moves each interior level to the exact minimiser of the
 * {@link VarianceProxy} between its neighbours.
 *
 * <p>With a = l_{j-1} and b = l_{j+1} fixed, V as a function of x = l_j has derivative (see {@link VarianceProxy})
 * <pre>
 *   dV/dx = (M1 - a M0)[a, x] - (b M0 - M1)[x, b] = (b - a) M0[a, x] - (b M0 - M1)[a, b]
 * </pre>
 * and second derivative (b - a) f(x) &gt;= 0, so V is convex in x and its minimiser solves
 * <pre>
 *   M0[a, x] = integral over [a, b] of (b - r) / (b - a) f(r) dr,   that is
 *   x = F^-1( F(a) + ((b M0 - M1)[a, b]) / (b - a) ):
 * </pre>
 * the level sits where the mass between its neighbours, weighted by the distance to the right neighbour, splits.
 * By default the root of dV/dx is found by Brent's method on the closed form; with {@code inverseCdf} the level is
 * set by the inverse-cdf formula directly (the seed's {@code nuq_inv}); both give the same minimiser. When there is
 * (numerically) no mass between a and b any x is optimal and the level goes to the midpoint.
 *
 * <p>Each epoch sweeps j = 1 ... s - 2 once. The descent runs from three starts (quantiles of f, uniform levels,
 * exponential levels +-0.5^j) and keeps the levels with the lowest proxy.
 *
 * <p>Symmetric (the seed's {@code nuq_sym}, in its {@code alq}): only the upper half of each start is descended,
 * behind a fixed level 0 that is not sent ({@code [0, l_{s/2}, ..., 1]}, as the seed's dummy level), against the
 * density on [0, 1] alone; the result is mirrored into {@code -h_m, ..., -h_1, h_1, ..., h_m}, and the candidates
 * compete on the proxy of the mirrored set over the whole density. The levels are then symmetric around zero and
 * have no zero level.
 */
public final class AlqCoordinateDescent extends BaseLevelFitter {
    private static final double NO_MASS = 1e-15;

    private final int epochs;
    private final boolean inverseCdf;
    private final boolean symmetric;

    /**
     * Creates the fitter.
     *
     * @param epochs number of sweeps over the interior levels ({@code cd_epochs}), at least 1
     * @param inverseCdf whether to set each level by the inverse-cdf formula rather than root finding
     * @throws IllegalArgumentException if epochs is below 1
     */
    public AlqCoordinateDescent(int epochs, boolean inverseCdf) {
        this(epochs, inverseCdf, false);
    }

    /**
     * Creates the fitter, symmetric or not.
     *
     * @param epochs number of sweeps over the interior levels ({@code cd_epochs}), at least 1
     * @param inverseCdf whether to set each level by the inverse-cdf formula rather than root finding
     * @param symmetric whether to fit the upper half behind a fixed 0 and mirror it (see the class comment)
     * @throws IllegalArgumentException if epochs is below 1
     */
    public AlqCoordinateDescent(int epochs, boolean inverseCdf, boolean symmetric) {
        if (epochs < 1) {
            throw new IllegalArgumentException("epochs must be at least 1, found " + epochs);
        }
        this.epochs = epochs;
        this.inverseCdf = inverseCdf;
        this.symmetric = symmetric;
    }

    public int epochs() {
        return epochs;
    }

    public boolean inverseCdf() {
        return inverseCdf;
    }

    public boolean symmetric() {
        return symmetric;
    }

    @Override
    FittedLevels fitChecked(Density density, int levelCount) {
        return bestOfAlqStarts(density, levelCount, epochs, symmetric,
                (f, levels, j) -> minimiser(f, levels[j - 1], levels[j + 1], inverseCdf));
    }

    /** One coordinate-descent sweep over the interior levels, in place; the ends stay where they are. */
    public static void sweep(Density density, double[] levels, boolean inverseCdf) {
        for (int j = 1; j + 1 < levels.length; j++) {
            levels[j] = minimiser(density, levels[j - 1], levels[j + 1], inverseCdf);
        }
    }

    /** The x in [a, b] minimising V with a level at x between neighbours a &lt; b (see the class comment). */
    public static double minimiser(Density density, double a, double b, boolean inverseCdf) {
        double mass = density.mass(a, b);
        if (!(b > a) || mass <= NO_MASS) {
            return 0.5 * (a + b);
        }
        double target = (b * mass - density.firstMoment(a, b)) / (b - a);
        if (target <= 0) {
            return a;
        }
        if (target >= mass) {
            return b;
        }
        double x;
        if (inverseCdf) {
            x = density.inverseCdf(Math.min(1.0, density.cdf(a) + target));
        } else {
            BrentSolver solver = new BrentSolver(1e-15, 1e-14);
            x = solver.solve(200, t -> density.mass(a, t) - target, a, b);
        }
        return Math.max(a, Math.min(b, x));
    }
}
