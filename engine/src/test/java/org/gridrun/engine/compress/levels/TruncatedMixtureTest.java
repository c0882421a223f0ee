package org.gridrun.engine.compress.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TruncatedMixtureTest {
    private static Mixture mixture() {
        return new Mixture(new Density[] {
            new TruncatedNormal(0, 0.1, -1, 1), new TruncatedNormal(0.4, 0.3, -1, 1), new TruncatedNormal(-0.8, 0.5, -1, 1)
        }, new double[] {0.5, 0.3, 0.2});
    }

    @Test
    void partialMomentsMatchNumericIntegration() {
        Mixture f = mixture();
        double[][] intervals = {{-1, 1}, {-0.25, 0.05}, {0.3, 0.95}, {-3, -0.5}};
        for (double[] xy : intervals) {
            double lo = Math.max(xy[0], -1);
            double hi = Math.min(xy[1], 1);
            assertEquals(Oracle.integrate(f::pdf, lo, hi), f.mass(xy[0], xy[1]), 1e-9);
            assertEquals(Oracle.integrate(r -> r * f.pdf(r), lo, hi), f.firstMoment(xy[0], xy[1]), 1e-9);
            assertEquals(Oracle.integrate(r -> r * r * f.pdf(r), lo, hi), f.secondMoment(xy[0], xy[1]), 1e-9);
        }
    }

    @Test
    void inverseCdfInvertsCdf() {
        Mixture f = mixture();
        for (double p = 0.0; p <= 1.0; p += 0.125) {
            assertEquals(p, f.cdf(f.inverseCdf(p)), 1e-12, "p=" + p);
        }
    }

    @Test
    void rejectsWeightsThatDoNotSumToOne() {
        Density[] parts = {new TruncatedNormal(0, 0.1, -1, 1), new TruncatedNormal(0.4, 0.3, -1, 1)};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Mixture(parts, new double[] {0.5, 0.4}));
        assertTrue(e.getMessage().startsWith("weights must sum to 1, found 0.9"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new Mixture(new Density[] {parts[0], new TruncatedNormal(0, 1, 0, 1)}, new double[] {0.5, 0.5}));
    }
}
