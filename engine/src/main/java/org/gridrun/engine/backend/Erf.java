package org.gridrun.engine.backend;

/**
 * The error function in double precision, for the exact GELU: Java's {@code Math} has none.
 *
 * <p>Below |u| = 2 the Maclaurin series {@code erf(u) = 2/√π · Σ (−1)ⁿ u^(2n+1) / (n!·(2n+1))}, 30 terms in Horner
 * form (the first dropped term is below 1e-12 there); from 2 on Laplace's continued fraction for erfc, 60 levels
 * deep, evaluated from the bottom; past 6, ±1 (erfc(6) is 2e-17). Both are accurate to about 1e-13, far below
 * float32's resolution; {@code ErfTest} checks them against values of erf from Python's {@code math.erf}.
 */
final class Erf {
    /** {@code 1/√(2π)}, the standard normal density at 0. */
    static final double INV_SQRT_2PI = 0.3989422804014327;

    private static final double TWO_OVER_SQRT_PI = 1.1283791670955126;
    private static final double INV_SQRT_PI = 0.5641895835477563;
    private static final double INV_SQRT_2 = 0.7071067811865476;
    private static final int SERIES_TERMS = 30;
    private static final int FRACTION_DEPTH = 60;
    private static final double[] SERIES = series();

    private Erf() {
    }

    /** {@code (−1)ⁿ / (n!·(2n+1))} for n below {@link #SERIES_TERMS}. */
    private static double[] series() {
        double[] c = new double[SERIES_TERMS];
        double factorial = 1;
        for (int n = 0; n < SERIES_TERMS; n++) {
            if (n > 0) {
                factorial *= n;
            }
            c[n] = (n % 2 == 0 ? 1 : -1) / (factorial * (2 * n + 1));
        }
        return c;
    }

    /** The error function {@code erf(u)}. */
    static double erf(double u) {
        double a = Math.abs(u);
        if (a < 2) {
            double u2 = u * u;
            double sum = SERIES[SERIES_TERMS - 1];
            for (int n = SERIES_TERMS - 2; n >= 0; n--) {
                sum = sum * u2 + SERIES[n];
            }
            return TWO_OVER_SQRT_PI * u * sum;
        }
        double erfc = a >= 6 ? 0 : erfcFraction(a);
        return Math.copySign(1 - erfc, u);
    }

    /** {@code erfc(a)} for a ≥ 2: {@code e^(−a²)/√π · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + …))))}. */
    private static double erfcFraction(double a) {
        double f = a;
        for (int k = FRACTION_DEPTH; k >= 1; k--) {
            f = a + 0.5 * k / f;
        }
        return Math.exp(-a * a) * INV_SQRT_PI / f;
    }

    /** The standard normal distribution function {@code Φ(v) = (1 + erf(v/√2))/2}. */
    static double normalCdf(double v) {
        return 0.5 * (1 + erf(v * INV_SQRT_2));
    }
}
