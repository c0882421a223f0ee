package org.gridrun.engine.compress.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TruncatedNormalTest {
    private static final double[][] INTERVALS = {
        {-1, 1}, {-0.3, 0.2}, {0.5, 0.9}, {-2, -0.7}, {0.8, 3}, {0.1, 0.1000001}, {0.4, 0.2}, {1.5, 2}
    };

    @Test
    void partialMomentsMatchNumericIntegration() {
        TruncatedNormal[] densities = {
            new TruncatedNormal(0, 0.2, -1, 1),
            new TruncatedNormal(0.3, 0.5, -1, 1),
            new TruncatedNormal(-0.6, 0.05, -1, 1),
            new TruncatedNormal(2.0, 0.4, -1, 1),
        };
        for (TruncatedNormal f : densities) {
            for (double[] xy : INTERVALS) {
                double x = xy[0];
                double y = xy[1];
                double lo = Math.max(x, f.lower());
                double hi = Math.min(y, f.upper());
                String where = f + " on [" + x + ", " + y + "]";
                assertEquals(Oracle.integrate(f::pdf, lo, hi), f.mass(x, y), 1e-9, where);
                assertEquals(Oracle.integrate(r -> r * f.pdf(r), lo, hi), f.firstMoment(x, y), 1e-9, where);
                assertEquals(Oracle.integrate(r -> r * r * f.pdf(r), lo, hi), f.secondMoment(x, y), 1e-9, where);
            }
        }
    }

    @Test
    void totalMassIsOneAndCdfInvertsItsQuantiles() {
        TruncatedNormal[] densities = {new TruncatedNormal(0, 0.2, -1, 1), new TruncatedNormal(2.0, 0.4, -1, 1)};
        for (TruncatedNormal f : densities) {
            assertEquals(1.0, f.mass(-1, 1), 1e-12);
            assertEquals(0.0, f.cdf(-1), 0.0);
            assertEquals(1.0, f.cdf(5), 1e-15);
            assertEquals(-1.0, f.inverseCdf(0), 1e-12);
            assertEquals(1.0, f.inverseCdf(1), 1e-12);
            for (double p = 0.05; p < 1; p += 0.1) {
                assertEquals(p, f.cdf(f.inverseCdf(p)), 1e-9, f + " at p=" + p);
            }
        }
    }

    @Test
    void rejectsParametersWithoutMassNamingTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TruncatedNormal(0, 0, -1, 1));
        assertTrue(e.getMessage().startsWith("std must be positive"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TruncatedNormal(40, 0.1, -1, 1));
        assertFalse(TruncatedNormal.hasMass(40, 0.1, -1, 1));
        assertTrue(TruncatedNormal.hasMass(0, 0.1, -1, 1));
    }
}
