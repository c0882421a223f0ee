package org.gridrun.engine.compress.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ProxyTest {
    private static final Density NORMAL = new TruncatedNormal(0, 0.2, -1, 1);
    private static final Density MIXTURE = new Mixture(
            new Density[] {new TruncatedNormal(0.1, 0.05, -1, 1), new TruncatedNormal(-0.2, 0.4, -1, 1)},
            new double[] {0.7, 0.3});

    private static double[] randomLevels(Random rng, int s) {
        double[] l = new double[s];
        l[0] = -1;
        l[s - 1] = 1;
        for (int j = 1; j < s - 1; j++) {
            l[j] = 2 * rng.nextDouble() - 1;
        }
        Arrays.sort(l);
        return l;
    }

    @Test
    void valueMatchesNumericIntegrationOfTheRoundingVariance() {
        Random rng = new Random(7);
        for (Density f : new Density[] {NORMAL, MIXTURE}) {
            for (int trial = 0; trial < 5; trial++) {
                double[] l = randomLevels(rng, 8);
                double expected = 0;
                for (int j = 0; j + 1 < l.length; j++) {
                    double a = l[j];
                    double b = l[j + 1];
                    expected += Oracle.integrate(r -> (r - a) * (b - r) * f.pdf(r), a, b);
                }
                assertEquals(expected, VarianceProxy.value(f, l), 1e-9, Arrays.toString(l));
            }
        }
    }

    @Test
    void uniformDensityOnUniformLevelsHasTheClosedFormVariance() {
        int s = 8;
        double h = 2.0 / (s - 1);
        double[] l = StartingLevels.uniform(s);
        assertEquals((s - 1) * h * h * h / 12, VarianceProxy.value(new Uniform(-1, 1), l), 1e-15);
    }

    @Test
    void gradientMatchesCentralFiniteDifference() {
        Random rng = new Random(11);
        double step = 1e-6;
        for (Density f : new Density[] {NORMAL, MIXTURE}) {
            for (int trial = 0; trial < 5; trial++) {
                double[] l = randomLevels(rng, 8);
                double[] grad = new double[l.length];
                VarianceProxy.gradient(f, l, grad);
                for (int j = 0; j < l.length; j++) {
                    double[] up = l.clone();
                    double[] down = l.clone();
                    up[j] += step;
                    down[j] -= step;
                    double fd = (value(f, up) - value(f, down)) / (2 * step);
                    assertEquals(fd, grad[j], 1e-7, "level " + j + " of " + Arrays.toString(l));
                }
            }
        }
    }

    /** V without the sortedness check, so a finite-difference step may cross a neighbour harmlessly. */
    private static double value(Density f, double[] l) {
        double v = 0;
        for (int j = 0; j + 1 < l.length; j++) {
            v += VarianceProxy.interval(f, l[j], l[j + 1]);
        }
        return v;
    }

    @Test
    void rejectsUnsortedLevels() {
        assertThrows(IllegalArgumentException.class, () -> VarianceProxy.value(NORMAL, new double[] {-1, 0.5, 0.2, 1}));
        assertThrows(IllegalArgumentException.class, () -> VarianceProxy.value(NORMAL, new double[] {1}));
    }
}
