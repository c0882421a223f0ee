package org.gridrun.engine.compress.levels;

import java.util.Arrays;

/**
 * A weighted mixture of densities on one common support; its partial moments are the weighted sums of theirs.
 *
 * <p>The inverse cdf has no closed form and is found by bisection on the (monotone) cdf.
 */
public final class Mixture implements Density {
    private static final double WEIGHT_TOLERANCE = 1e-9;

    private final Density[] components;
    private final double[] weights;

    /**
     * Creates the mixture sum_k weights[k] components[k].
     *
     * @throws IllegalArgumentException if the arrays are empty or differ in length, a weight is negative or not
     *     finite, the weights do not sum to 1 (within 1e-9), or the components' supports differ
     */
    public Mixture(Density[] components, double[] weights) {
        require(components.length > 0 && components.length == weights.length,
                "components and weights must be non-empty and equally long, found " + components.length + " and "
                        + weights.length);
        double sum = 0;
        for (int k = 0; k < weights.length; k++) {
            require(Double.isFinite(weights[k]) && weights[k] >= 0,
                    "weights[" + k + "] must be non-negative, found " + weights[k]);
            require(components[k].lower() == components[0].lower() && components[k].upper() == components[0].upper(),
                    "components must share one support, found [" + components[k].lower() + ", "
                            + components[k].upper() + "] at " + k);
            sum += weights[k];
        }
        require(Math.abs(sum - 1) <= WEIGHT_TOLERANCE, "weights must sum to 1, found " + sum
                + "; divide each by their sum");
        this.components = components.clone();
        this.weights = weights.clone();
    }

    /** The number of components. */
    public int size() {
        return components.length;
    }

    /** Component {@code k}, in the order given. */
    public Density component(int k) {
        return components[k];
    }

    /** A copy of the weights, in component order. */
    public double[] weights() {
        return weights.clone();
    }

    @Override
    public double lower() {
        return components[0].lower();
    }

    @Override
    public double upper() {
        return components[0].upper();
    }

    @Override
    public double pdf(double x) {
        double s = 0;
        for (int k = 0; k < components.length; k++) {
            s += weights[k] * components[k].pdf(x);
        }
        return s;
    }

    @Override
    public double cdf(double x) {
        return mass(lower(), x);
    }

    @Override
    public double inverseCdf(double p) {
        require(p >= 0 && p <= 1, "p must be in [0, 1], found " + p);
        double lo = lower();
        double hi = upper();
        for (int i = 0; i < 200 && hi - lo > 1e-15 * (1 + Math.abs(lo)); i++) {
            double mid = 0.5 * (lo + hi);
            if (cdf(mid) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    @Override
    public double mass(double x, double y) {
        double s = 0;
        for (int k = 0; k < components.length; k++) {
            s += weights[k] * components[k].mass(x, y);
        }
        return s;
    }

    @Override
    public double firstMoment(double x, double y) {
        double s = 0;
        for (int k = 0; k < components.length; k++) {
            s += weights[k] * components[k].firstMoment(x, y);
        }
        return s;
    }

    @Override
    public double secondMoment(double x, double y) {
        double s = 0;
        for (int k = 0; k < components.length; k++) {
            s += weights[k] * components[k].secondMoment(x, y);
        }
        return s;
    }

    @Override
    public String toString() {
        return "Mixture(" + Arrays.toString(components) + ", weights=" + Arrays.toString(weights) + ")";
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
