package org.gridrun.engine.compress.levels;

import java.util.Arrays;

/**
 * AMQ's fitting of p as the authors' code does it ({@code level_fit: authors}): their gradient formula, their
 * starting points, the last p of each descent, and their choice among the starts.
 *
 * <p>Following {@code amq_norm_less}, {@code amq_norm_based} and {@code update_levels} in the authors'
 * {@code nuq/quantize.py}: from each start p takes {@code epochs} steps {@code p ← p − lr·G(p)}, G being their
 * closed form for normal densities (their appendix, eq. G.3), with {@code s = 2^(bits−1) − 1}:
 * <pre>
 *   G = 2 s p^(2s−1) (F(p^s) − F(0)) + Σ_c w_c [A_c + σ_c² B_c],
 *   A_c = Σ_{j&lt;s} (μ_c (j p^(j−1) + (j+1) p^j) − (2j+1) p^(2j)) (F_c(p^j) − F_c(p^(j+1))),
 *   B_c = Σ_{j&lt;s} (j p^(j−1) + (j+1) p^j) (f_c(p^(j+1)) − f_c(p^j)),
 * </pre>
 * over the one truncated normal of the norm-less fit ({@code w = 1}) or the mixture's components. The starts are
 * 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 0.9 (norm-less; 0.6 left out norm-based), the previous fit's p taking 0.6's
 * place before 0.5 once there is one. Each descent keeps its last p, not its best, and the starts compete on the
 * proxy of the upper half of their levels only ({@code p^(s)}, …, p, 1: the cell around zero and the negative side
 * not counted), the first lowest winning. gridrun keeps p inside [1e-6, 1 − 1e-6], where their code would go on
 * with levels out of order. A density that is not a truncated normal or a mixture of them (the uniform fallback of a
 * degenerate fit) takes the exact derivative of {@link AmqExponential} instead of G. The proxy reported is that of
 * the full level set, as for every fitter.
 */
public final class AmqAuthors extends BaseLevelFitter {
    private static final double[] NORM_LESS_STARTS = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 0.9};
    private static final double[] NORM_BASED_STARTS = {0.1, 0.2, 0.3, 0.4, 0.5, 0.8, 0.9};
    private static final double MIN_P = 1e-6;
    private static final double MAX_P = 1 - 1e-6;

    private final int epochs;
    private final double learningRate;
    private final boolean normBased;

    /**
     * Creates the fitter.
     *
     * @param epochs gradient steps per start ({@code amq_epochs}), at least 0
     * @param learningRate step size ({@code amq_lr}), positive
     * @param normBased whether the density is the norm-based mixture (their {@code amq_nb}, other starts)
     * @throws IllegalArgumentException if a value is out of range
     */
    public AmqAuthors(int epochs, double learningRate, boolean normBased) {
        checkEpochs(epochs, 0);
        checkRate(learningRate);
        this.epochs = epochs;
        this.learningRate = learningRate;
        this.normBased = normBased;
    }

    @Override
    FittedLevels fitChecked(Density density, int levelCount) {
        return fit(density, levelCount, Double.NaN);
    }

    @Override
    public FittedLevels fit(Density density, int levelCount, double previousMultiplier) {
        check(density, levelCount);
        int half = levelCount / 2;
        double bestP = Double.NaN;
        double bestCost = Double.POSITIVE_INFINITY;
        for (double start : starts(previousMultiplier)) {
            double p = start;
            for (int e = 0; e < epochs; e++) {
                p = Math.max(MIN_P, Math.min(MAX_P, p - learningRate * gradient(density, p, levelCount)));
            }
            double[] levels = StartingLevels.exponential(levelCount, p);
            double cost = VarianceProxy.value(density, Arrays.copyOfRange(levels, half, levelCount));
            if (cost < bestCost) {
                bestCost = cost;
                bestP = p;
            }
        }
        double[] levels = StartingLevels.exponential(levelCount, bestP);
        return new FittedLevels(levels, VarianceProxy.value(density, levels), bestP);
    }

    /** Their starting points, with the previous p (when there is one) in place of 0.6, before 0.5. */
    private double[] starts(double previous) {
        double[] base = normBased ? NORM_BASED_STARTS : NORM_LESS_STARTS;
        if (!(previous > 0 && previous < 1)) {
            return base;
        }
        return new double[] {0.1, 0.2, 0.3, 0.4, previous, 0.5, 0.8, 0.9};
    }

    /** Their G(p) (see the class comment), or the exact dV/dp for a density that is no normal or mixture of them. */
    static double gradient(Density density, double p, int levelCount) {
        int s = levelCount / 2 - 1;
        double g = 2 * s * Math.pow(p, 2 * s - 1) * (density.cdf(Math.pow(p, s)) - density.cdf(0));
        if (density instanceof TruncatedNormal t) {
            return g + component(t, p, s);
        }
        if (density instanceof Mixture m && normals(m)) {
            double[] w = m.weights();
            for (int c = 0; c < m.size(); c++) {
                g += w[c] * component((TruncatedNormal) m.component(c), p, s);
            }
            return g;
        }
        return AmqExponential.derivative(density, StartingLevels.exponential(levelCount, p), p,
                new double[levelCount]);
    }

    private static boolean normals(Mixture m) {
        for (int c = 0; c < m.size(); c++) {
            if (!(m.component(c) instanceof TruncatedNormal)) {
                return false;
            }
        }
        return true;
    }

    /** {@code A + σ² B} of one truncated normal (see the class comment). */
    private static double component(TruncatedNormal t, double p, int s) {
        double mu = t.mean();
        double a = 0;
        double b = 0;
        for (int j = 0; j < s; j++) {
            double slope = (j == 0 ? 0 : j * Math.pow(p, j - 1)) + (j + 1) * Math.pow(p, j);
            double at = Math.pow(p, j);
            double next = Math.pow(p, j + 1);
            a += (mu * slope - (2 * j + 1) * Math.pow(p, 2 * j)) * (t.cdf(at) - t.cdf(next));
            b += slope * (t.pdf(next) - t.pdf(at));
        }
        return a + t.std() * t.std() * b;
    }
}
