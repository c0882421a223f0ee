package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WelchTestTest {
    @Test
    void handComputedStatisticDegreesOfFreedomAndPValue() {
        // a: mean 2, var 1, n 3 -> var/n 1/3; b: mean 5, var 2.5, n 5 -> var/n 0.5
        // t = -3 / sqrt(5/6); df = (5/6)^2 / ((1/3)^2/2 + 0.5^2/4) = 0.694444 / 0.118056 = 5.882353
        double[] a = {1, 2, 3};
        double[] b = {3, 4, 5, 6, 7};
        WelchTest w = WelchTest.of(a, b);
        assertEquals(-3 / Math.sqrt(5.0 / 6.0), w.t(), 1e-12);
        assertEquals((25.0 / 36.0) / (1.0 / 18.0 + 1.0 / 16.0), w.degreesOfFreedom(), 1e-12);
        // two-sided p from t(5.88): 2 * P(T > 3.2863) = 0.01714 (R: t.test(a, b)$p.value = 0.01713)
        assertEquals(0.0171, w.pValue(), 5e-4);
        assertTrue(w.significant(0.05));
        assertFalse(w.significant(0.01));
    }

    @Test
    void identicalMeansAreNotSignificant() {
        WelchTest w = WelchTest.of(new double[] {1, 2, 3}, new double[] {0, 2, 4});
        assertEquals(0, w.t(), 1e-12);
        assertEquals(1, w.pValue(), 1e-12);
    }

    @Test
    void needsTwoValuesPerGroup() {
        assertThrows(IllegalArgumentException.class, () -> WelchTest.of(new double[] {1}, new double[] {1, 2}));
    }
}
