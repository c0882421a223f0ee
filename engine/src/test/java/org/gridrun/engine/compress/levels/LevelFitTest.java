package org.gridrun.engine.compress.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LevelFitTest {
    private static final int S = 8;
    private static final Density NORMAL = new TruncatedNormal(0, 0.2, -1, 1);
    private static final Density MIXTURE = new Mixture(
            new Density[] {new TruncatedNormal(0.1, 0.05, -1, 1), new TruncatedNormal(-0.2, 0.4, -1, 1)},
            new double[] {0.7, 0.3});

    private static void assertValidAlqLevels(FittedLevels fit) {
        double[] l = fit.levels();
        assertEquals(S, l.length);
        assertEquals(-1.0, l[0], 0.0);
        assertEquals(1.0, l[S - 1], 0.0);
        for (int j = 1; j < S; j++) {
            assertTrue(l[j] >= l[j - 1] && l[j] <= 1 && l[j] >= -1, Arrays.toString(l));
        }
    }

    @Test
    void coordinateDescentLowersTheProxyBelowEveryStart() {
        for (Density f : new Density[] {NORMAL, MIXTURE}) {
            FittedLevels fit = new AlqCoordinateDescent(10, false).fit(f, S);
            assertValidAlqLevels(fit);
            assertEquals(VarianceProxy.value(f, fit.levels()), fit.proxy(), 0.0);
            for (double[] start : BaseLevelFitter.alqStarts(f, S)) {
                assertTrue(fit.proxy() < VarianceProxy.value(f, start), fit + " vs " + Arrays.toString(start));
            }
            assertTrue(fit.proxy() < 0.8 * VarianceProxy.value(f, StartingLevels.uniform(S)), fit.toString());
        }
    }

    @Test
    void eachSweepNeverRaisesTheProxyAndLeavesEveryInteriorLevelAtAStationaryPoint() {
        double[] l = StartingLevels.uniform(S);
        double before = VarianceProxy.value(NORMAL, l);
        for (int e = 0; e < 200; e++) {
            AlqCoordinateDescent.sweep(NORMAL, l, false);
            double after = VarianceProxy.value(NORMAL, l);
            assertTrue(after <= before + 1e-15, "epoch " + e);
            before = after;
        }
        double[] grad = new double[S];
        VarianceProxy.gradient(NORMAL, l, grad);
        for (int j = 1; j < S - 1; j++) {
            assertEquals(0.0, grad[j], 1e-9, "level " + j + " of " + Arrays.toString(l));
        }
    }

    @Test
    void inverseCdfUpdateAgreesWithRootFinding() {
        for (Density f : new Density[] {NORMAL, MIXTURE}) {
            for (double[] ab : new double[][] {{-1, 1}, {-0.3, 0.1}, {0.2, 0.9}, {-1, -0.6}}) {
                double byRoot = AlqCoordinateDescent.minimiser(f, ab[0], ab[1], false);
                double byInverse = AlqCoordinateDescent.minimiser(f, ab[0], ab[1], true);
                assertEquals(byRoot, byInverse, 1e-9, f + " on " + Arrays.toString(ab));
            }
        }
        FittedLevels root = new AlqCoordinateDescent(10, false).fit(NORMAL, S);
        FittedLevels inverse = new AlqCoordinateDescent(10, true).fit(NORMAL, S);
        assertArrayEquals(root.levels(), inverse.levels(), 1e-8);
    }

    @Test
    void projectedGradientLowersTheProxyBelowEveryStart() {
        for (Density f : new Density[] {NORMAL, MIXTURE}) {
            FittedLevels fit = new AlqProjectedGradient(200, 0.1).fit(f, S);
            assertValidAlqLevels(fit);
            for (double[] start : BaseLevelFitter.alqStarts(f, S)) {
                assertTrue(fit.proxy() < VarianceProxy.value(f, start), fit + " vs " + Arrays.toString(start));
            }
        }
    }

    @Test
    void amqLearnsAMultiplierBetterThanOneHalfAndKeepsItsLevelsExponential() {
        for (Density f : new Density[] {NORMAL, MIXTURE}) {
            FittedLevels fit = new AmqExponential().fit(f, S);
            double p = fit.multiplier().orElseThrow();
            assertTrue(p > 0 && p < 1, "p=" + p);
            assertTrue(fit.proxy() < VarianceProxy.value(f, StartingLevels.exponential(S, 0.5)), fit.toString());
            double[] l = fit.levels();
            for (int j = 0; j < S / 2; j++) {
                assertEquals(Math.pow(p, j), l[S - 1 - j], 0.0);
                assertEquals(-Math.pow(p, j), l[j], 0.0);
            }
            assertValidAlqLevels(fit);
        }
    }

    @Test
    void amqDerivativeMatchesFiniteDifference() {
        double p = 0.4;
        double h = 1e-6;
        double fd = (VarianceProxy.value(NORMAL, StartingLevels.exponential(S, p + h))
                - VarianceProxy.value(NORMAL, StartingLevels.exponential(S, p - h))) / (2 * h);
        double exact = AmqExponential.derivative(NORMAL, StartingLevels.exponential(S, p), p, new double[S]);
        assertEquals(fd, exact, 1e-8);
    }

    @Test
    void uniformDensityGivesUniformLevels() {
        FittedLevels fit = new AlqCoordinateDescent(10, false).fit(new Uniform(-1, 1), S);
        assertArrayEquals(StartingLevels.uniform(S), fit.levels(), 1e-12);
    }

    @Test
    void rejectsOddLevelCountsAndOtherSupports() {
        LevelFitter cd = new AlqCoordinateDescent(1, false);
        assertThrows(IllegalArgumentException.class, () -> cd.fit(NORMAL, 7));
        assertThrows(IllegalArgumentException.class, () -> cd.fit(new Uniform(-2, 1), 8));
        assertThrows(IllegalArgumentException.class, () -> cd.fit(new Uniform(0, 1.5), 8));
        assertThrows(IllegalArgumentException.class, () -> new AmqExponential(50, 0.7, 1.5));
        assertThrows(IllegalArgumentException.class, () -> new AlqCoordinateDescent(0, false));
    }

    private static void assertArrayEquals(double[] expected, double[] actual, double delta) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual, delta,
                Arrays.toString(expected) + " vs " + Arrays.toString(actual));
    }
}
