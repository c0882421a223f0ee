package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SeedSummaryTest {
    private static final double EPS = 1e-9;

    @Test
    void fourValuesAgainstHandComputedStatistics() {
        // mean 2.5; sample variance ((1.5)^2 + (0.5)^2 * 2 + (1.5)^2) / 3 = 5/3; t(0.975, 3) = 3.182446305284263
        SeedSummary s = SeedSummary.of(new double[] {1, 2, 3, 4});
        double std = Math.sqrt(5.0 / 3.0);
        assertEquals(4, s.n());
        assertEquals(2.5, s.mean(), EPS);
        assertEquals(std, s.std(), EPS);
        assertEquals(std / 2, s.standardError(), EPS);
        assertEquals(3.182446305284263 * std / 2, s.halfWidth95(), 1e-7);
        assertEquals(2.5 - s.halfWidth95(), s.lower95(), EPS);
    }

    @Test
    void twoValuesUseTwelvePointSevenOh() {
        // t(0.975, 1) = 12.706204736174698; std of {0.9, 0.92} = 0.02 / sqrt(2)
        SeedSummary s = SeedSummary.of(new double[] {0.9, 0.92});
        assertEquals(0.91, s.mean(), EPS);
        assertEquals(0.02 / Math.sqrt(2), s.std(), EPS);
        assertEquals(12.706204736174698 * 0.01, s.halfWidth95(), 1e-7);
    }

    @Test
    void oneValueHasNoSpread() {
        SeedSummary s = SeedSummary.of(new double[] {3});
        assertEquals(3, s.mean(), EPS);
        assertTrue(Double.isNaN(s.std()));
        assertTrue(Double.isNaN(s.halfWidth95()));
    }

    @Test
    void noValuesHaveNoMean() {
        SeedSummary s = SeedSummary.of(new double[0]);
        assertEquals(0, s.n());
        assertTrue(Double.isNaN(s.mean()));
    }
}
