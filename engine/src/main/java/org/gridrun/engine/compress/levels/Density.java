package org.gridrun.engine.compress.levels;

/**
 * A probability density on a bounded interval whose partial moments are known in closed form.
 *
 * <p>The partial moments over [x, y] are the integrals of f(r), r f(r) and r^2 f(r) over the intersection of [x, y]
 * with the support; they are zero when that intersection is empty or when y &lt;= x. They are all the
 * {@link VarianceProxy} needs.
 *
 * <p>Implementations are immutable and safe to share between threads.
 */
public interface Density {

    /** Lower end of the support. */
    double lower();

    /** Upper end of the support. */
    double upper();

    /** Density at x, zero outside the support. */
    double pdf(double x);

    /** Probability of [lower, x]: 0 below the support, 1 above it. */
    double cdf(double x);

    /**
     * The x in the support with cdf(x) = p.
     *
     * @param p a probability in [0, 1]
     * @return the quantile, clamped to [lower, upper]
     */
    double inverseCdf(double p);

    /** Integral of f(r) over [x, y]. */
    double mass(double x, double y);

    /** Integral of r f(r) over [x, y]. */
    double firstMoment(double x, double y);

    /** Integral of r^2 f(r) over [x, y]. */
    double secondMoment(double x, double y);
}
