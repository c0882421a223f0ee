package org.gridrun.engine.backend;

/**
 * The error function in double precision, for the exact GELU: Java's {@code Math} has none.
 *
 * <p>Below |u| = 2, {@code u·p((u² − 2)/2)} with p a degree-12 polynomial fitted (least squares at 4000 Chebyshev
 * nodes of u² in [0, 4]) to {@code erf(u)/u}; from 2 on, Laplace's continued fraction for erfc, 40 levels deep,
 * evaluated from the bottom; from 6 on, ±1 (erfc(6) is 2e-17). Both are within 5e-12 of erf, far below float32's
 * resolution ({@code ErfTest} checks values of Python's {@code math.erf}). {@code engine/src/main/cuda/sequence.cu}
 * computes the same expressions in the same order, so both backends' GELUs agree: change both together.
 */
final class Erf {
    /** {@code 1/√(2π)}, the standard normal density at 0. */
    static final double INV_SQRT_2PI = 0.3989422804014327;

    private static final double INV_SQRT_PI = 0.5641895835477563;
    private static final double INV_SQRT_2 = 0.7071067811865476;
    private static final int FRACTION_DEPTH = 40;
    /** p's coefficients, constant term first. */
    private static final double[] P = {0.674933236039863, -0.261111860902321, 0.11947913859544901,
        -0.04866277825781386, 0.017128344801684445, -0.005234869380519519, 0.001405090048769666,
        -0.0003351655966023202, 7.180492051183733e-05, -1.3909698680422965e-05, 2.4700994181941286e-06,
        -4.3345482415520966e-07, 6.529672452071725e-08};

    private Erf() {
    }

    /** The error function {@code erf(u)}. */
    static double erf(double u) {
        double a = Math.abs(u);
        if (a < 2) {
            double t = (u * u - 2) * 0.5;
            double p = P[P.length - 1];
            for (int i = P.length - 2; i >= 0; i--) {
                p = p * t + P[i];
            }
            return u * p;
        }
        if (a >= 6) {
            return Math.copySign(1, u);
        }
        double f = a;
        for (int k = FRACTION_DEPTH; k >= 1; k--) {
            f = a + 0.5 * k / f;
        }
        return Math.copySign(1 - Math.exp(-a * a) * INV_SQRT_PI / f, u);
    }

    /** The standard normal distribution function {@code Φ(v) = (1 + erf(v/√2))/2}. */
    static double normalCdf(double v) {
        return 0.5 * (1 + erf(v * INV_SQRT_2));
    }
}
