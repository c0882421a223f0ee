package org.gridrun.engine.compress.levels;

import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * A normal distribution N(mean, std^2) conditioned on [lower, upper], with closed-form partial moments.
 *
 * <p>With z = (r - mean) / std, standard normal pdf phi and cdf Phi, and Z = Phi(beta) - Phi(alpha) the mass of the
 * normal on the support, the partial moments over [x, y] (u, v the standardised ends) are
 * <pre>
 *   mass   = (Phi(v) - Phi(u)) / Z
 *   first  = (mean (Phi(v) - Phi(u)) + std (phi(u) - phi(v))) / Z
 *   second = (mean^2 (Phi(v) - Phi(u)) + 2 mean std (phi(u) - phi(v))
 *             + std^2 (Phi(v) - Phi(u) + u phi(u) - v phi(v))) / Z
 * </pre>
 * using the integrals of phi, z phi and z^2 phi. Differences of Phi are taken in the tail where they are small, so
 * they keep their precision when the support lies far from the mean.
 */
public final class TruncatedNormal implements Density {
    /** Smallest normal mass on the support that is accepted; below it the conditioning is numerically meaningless. */
    static final double MIN_MASS = 1e-12;

    private static final NormalDistribution STANDARD = new NormalDistribution(null, 0.0, 1.0);

    private final double mean;
    private final double std;
    private final double lower;
    private final double upper;
    private final double alpha;
    private final double beta;
    private final double normalMass;

    /**
     * Creates the normal N(mean, std^2) truncated to [lower, upper].
     *
     * @throws IllegalArgumentException if a value is not finite, std is not positive, lower &gt;= upper, or the normal
     *     puts (numerically) no mass on [lower, upper]; {@link #hasMass} checks the last without throwing
     */
    public TruncatedNormal(double mean, double std, double lower, double upper) {
        require(Double.isFinite(mean), "mean must be finite, found " + mean);
        require(Double.isFinite(std) && std > 0, "std must be positive and finite, found " + std);
        require(Double.isFinite(lower) && Double.isFinite(upper) && lower < upper,
                "lower must be below upper and both finite, found [" + lower + ", " + upper + "]");
        this.mean = mean;
        this.std = std;
        this.lower = lower;
        this.upper = upper;
        this.alpha = (lower - mean) / std;
        this.beta = (upper - mean) / std;
        this.normalMass = standardMass(alpha, beta);
        require(normalMass > MIN_MASS, "the normal N(" + mean + ", " + std + "^2) puts no mass on [" + lower + ", "
                + upper + "] (found " + normalMass + "); move the mean inside or widen std");
    }

    /** Whether {@code new TruncatedNormal(mean, std, lower, upper)} would succeed. */
    public static boolean hasMass(double mean, double std, double lower, double upper) {
        return Double.isFinite(mean) && Double.isFinite(std) && std > 0 && Double.isFinite(lower)
                && Double.isFinite(upper) && lower < upper
                && standardMass((lower - mean) / std, (upper - mean) / std) > MIN_MASS;
    }

    public double mean() {
        return mean;
    }

    public double std() {
        return std;
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
        if (x < lower || x > upper) {
            return 0.0;
        }
        return STANDARD.density(standardise(x)) / (std * normalMass);
    }

    @Override
    public double cdf(double x) {
        return mass(lower, x);
    }

    @Override
    public double inverseCdf(double p) {
        require(p >= 0 && p <= 1, "p must be in [0, 1], found " + p);
        if (p == 0 || p == 1) {
            return p == 0 ? lower : upper;
        }
        // Invert whichever tail is smaller: the normal quantile loses precision near probability 1.
        double lowerTail = phi(alpha) + p * normalMass;
        double upperTail = phi(-beta) + (1 - p) * normalMass;
        double z = lowerTail <= upperTail
                ? STANDARD.inverseCumulativeProbability(lowerTail)
                : -STANDARD.inverseCumulativeProbability(upperTail);
        return clamp(mean + std * z);
    }

    @Override
    public double mass(double x, double y) {
        double a = clamp(x);
        double b = clamp(y);
        return b > a ? standardMass(standardise(a), standardise(b)) / normalMass : 0.0;
    }

    @Override
    public double firstMoment(double x, double y) {
        double a = clamp(x);
        double b = clamp(y);
        if (b <= a) {
            return 0.0;
        }
        double u = standardise(a);
        double v = standardise(b);
        return (mean * standardMass(u, v) + std * (STANDARD.density(u) - STANDARD.density(v))) / normalMass;
    }

    @Override
    public double secondMoment(double x, double y) {
        double a = clamp(x);
        double b = clamp(y);
        if (b <= a) {
            return 0.0;
        }
        double u = standardise(a);
        double v = standardise(b);
        double dPhi = standardMass(u, v);
        double phiU = STANDARD.density(u);
        double phiV = STANDARD.density(v);
        double dphi = phiU - phiV;
        double dzphi = u * phiU - v * phiV;
        return (mean * mean * dPhi + 2 * mean * std * dphi + std * std * (dPhi + dzphi)) / normalMass;
    }

    @Override
    public String toString() {
        return "TruncatedNormal(mean=" + mean + ", std=" + std + ", [" + lower + ", " + upper + "])";
    }

    /** Phi(v) - Phi(u) for u &lt;= v, computed in whichever tail keeps the difference precise. */
    private static double standardMass(double u, double v) {
        return u > 0 ? phi(-u) - phi(-v) : phi(v) - phi(u);
    }

    private static double phi(double z) {
        return STANDARD.cumulativeProbability(z);
    }

    private double standardise(double x) {
        return (x - mean) / std;
    }

    private double clamp(double x) {
        return Math.max(lower, Math.min(upper, x));
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
