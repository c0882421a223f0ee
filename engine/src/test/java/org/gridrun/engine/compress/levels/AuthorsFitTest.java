package org.gridrun.engine.compress.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The fitters that follow the authors' code ({@code level_fit: authors}), against gridrun's exact ones. */
class AuthorsFitTest {
    /** Normalised gradient values: a narrow normal, as buckets of 8192 give. */
    private static final TruncatedNormal NARROW = new TruncatedNormal(0.0002, 0.008, -1, 1);
    private static final Density MIXTURE = new Mixture(new Density[] {NARROW,
        new TruncatedNormal(-0.001, 0.03, -1, 1)}, new double[] {0.7, 0.3});

    @Test
    void finiteDifferenceStepsOfSizeOneEndFarAboveTheExactMinimum() {
        for (boolean symmetric : new boolean[] {false, true}) {
            FittedLevels authors = new AlqFiniteDifference(30, false, symmetric).fit(NARROW, 8);
            FittedLevels exact = new AlqCoordinateDescent(30, false, symmetric).fit(NARROW, 8);
            assertTrue(exact.proxy() < 0.75 * authors.proxy(), symmetric + ": exact " + exact.proxy() + ", authors "
                    + authors.proxy());
        }
    }

    @Test
    void aStepIsTheCentralDifferenceWithRateOne() {
        // one step by hand: x − (V(x + ε) − V(x − ε)) / 2ε, V the two intervals around x
        Density wide = new TruncatedNormal(0, 0.5, -1, 1);
        double a = -0.2;
        double x = 0.1;
        double b = 0.7;
        double eps = (b - a) / 1000;
        double expected = x;
        for (int k = 0; k < AlqFiniteDifference.STEPS; k++) {
            double up = VarianceProxy.interval(wide, a, expected + eps)
                    + VarianceProxy.interval(wide, expected + eps, b);
            double down = VarianceProxy.interval(wide, a, expected - eps)
                    + VarianceProxy.interval(wide, expected - eps, b);
            expected -= (up - down) / (2 * eps);
        }
        assertEquals(expected, AlqFiniteDifference.descend(wide, a, x, b), 1e-15);
        assertEquals(new AlqCoordinateDescent(3, true).fit(NARROW, 16).proxy(),
                new AlqFiniteDifference(3, true, false).fit(NARROW, 16).proxy(), 1e-18, "inv is exact in both");
    }

    @Test
    void theirGradientIsTheirClosedFormAtTwoBits() {
        // s = 1: G = 2p (F(p) − F(0)) + (μ − 1)(F(1) − F(p)) + σ² (f(p) − f(1))
        for (double p : new double[] {0.05, 0.3, 0.7}) {
            double expected = 2 * p * (NARROW.cdf(p) - NARROW.cdf(0)) + (NARROW.mean() - 1) * (NARROW.cdf(1)
                    - NARROW.cdf(p)) + NARROW.std() * NARROW.std() * (NARROW.pdf(p) - NARROW.pdf(1));
            assertEquals(expected, AmqAuthors.gradient(NARROW, p, 4), 1e-15, "p " + p);
        }
        double mixed = 0.7 * AmqAuthors.gradient(NARROW, 0.3, 8)
                + 0.3 * AmqAuthors.gradient(new TruncatedNormal(-0.001, 0.03, -1, 1), 0.3, 8);
        assertEquals(mixed, AmqAuthors.gradient(MIXTURE, 0.3, 8), 1e-12, "components weighted, first term shared");
    }

    @Test
    void theirSelectionOnTheUpperHalfPicksAWorseMultiplier() {
        FittedLevels authors = new AmqAuthors(50, 0.7, false).fit(NARROW, 8);
        FittedLevels exact = new AmqExponential().fit(NARROW, 8);
        assertTrue(exact.proxy() < authors.proxy(), "exact " + exact + ", authors " + authors);
        double p = authors.multiplier().getAsDouble();
        assertEquals(VarianceProxy.value(NARROW, StartingLevels.exponential(8, p)), authors.proxy(), 1e-18,
                "the proxy reported is the whole set's");
        FittedLevels again = new AmqAuthors(50, 0.7, false).fit(NARROW, 8, p);
        assertTrue(again.proxy() <= authors.proxy(), "starting from the previous p never does worse");
        assertTrue(Arrays.stream(again.levels()).allMatch(l -> Math.abs(l) <= 1));
        assertThrows(IllegalArgumentException.class, () -> new AmqAuthors(50, 0.7, false).fit(NARROW, 7, p));
    }
}
