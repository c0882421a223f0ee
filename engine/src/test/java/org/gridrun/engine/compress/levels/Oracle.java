package org.gridrun.engine.compress.levels;

import org.apache.commons.math3.analysis.UnivariateFunction;
import org.apache.commons.math3.analysis.integration.IterativeLegendreGaussIntegrator;

/** Numerical integration, the independent oracle for the closed forms. */
final class Oracle {
    private Oracle() {
    }

    /** Integral of g over [a, b], split into pieces so the Gauss-Legendre rule converges on peaked densities. */
    static double integrate(UnivariateFunction g, double a, double b) {
        if (b <= a) {
            return 0.0;
        }
        int pieces = 64;
        double h = (b - a) / pieces;
        double sum = 0;
        for (int i = 0; i < pieces; i++) {
            IterativeLegendreGaussIntegrator rule = new IterativeLegendreGaussIntegrator(8, 1e-13, 1e-15);
            sum += rule.integrate(1_000_000, g, a + i * h, i + 1 == pieces ? b : a + (i + 1) * h);
        }
        return sum;
    }
}
