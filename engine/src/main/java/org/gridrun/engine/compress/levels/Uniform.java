package org.gridrun.engine.compress.levels;

/**
 * The uniform density on [lower, upper]: the fallback when observed values carry no usable spread.
 *
 * <p>Its optimal levels under the {@link VarianceProxy} are evenly spaced, so fitting against it gives uniform
 * levels.
 */
public final class Uniform implements Density {
    private final double lower;
    private final double upper;

    /**
     * Creates the uniform density on [lower, upper].
     *
     * @throws IllegalArgumentException unless both ends are finite and lower &lt; upper
     */
    public Uniform(double lower, double upper) {
        if (!(Double.isFinite(lower) && Double.isFinite(upper) && lower < upper)) {
            throw new IllegalArgumentException(
                    "lower must be below upper and both finite, found [" + lower + ", " + upper + "]");
        }
        this.lower = lower;
        this.upper = upper;
    }

    @Override
    public double lower() {
        return lower;
    }

    @Override
    public double upper() {
        return upper;
    }

    @Override
    public double pdf(double x) {
        return x < lower || x > upper ? 0.0 : 1.0 / (upper - lower);
    }

    @Override
    public double cdf(double x) {
        return mass(lower, x);
    }

    @Override
    public double inverseCdf(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("p must be in [0, 1], found " + p);
        }
        return Math.min(upper, lower + p * (upper - lower));
    }

    @Override
    public double mass(double x, double y) {
        double a = clamp(x);
        double b = clamp(y);
        return b > a ? (b - a) / (upper - lower) : 0.0;
    }

    @Override
    public double firstMoment(double x, double y) {
        double a = clamp(x);
        double b = clamp(y);
        return b > a ? (b * b - a * a) / (2 * (upper - lower)) : 0.0;
    }

    @Override
    public double secondMoment(double x, double y) {
        double a = clamp(x);
        double b = clamp(y);
        return b > a ? (b * b * b - a * a * a) / (3 * (upper - lower)) : 0.0;
    }

    @Override
    public String toString() {
        return "Uniform[" + lower + ", " + upper + "]";
    }

    private double clamp(double x) {
        return Math.max(lower, Math.min(upper, x));
    }
}
