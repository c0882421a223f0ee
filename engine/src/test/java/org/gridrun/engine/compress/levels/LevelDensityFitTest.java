package org.gridrun.engine.compress.levels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LevelDensityFitTest {

    @Test
    void normLessFitsThePooledMeanAndStd() {
        Random rng = new Random(3);
        float[] values = new float[20_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) (0.1 + 0.2 * rng.nextGaussian());
        }
        TruncatedNormal f = assertInstanceOf(TruncatedNormal.class, DensityFit.normLess(values));
        assertEquals(0.1, f.mean(), 0.01);
        assertEquals(0.2, f.std(), 0.01);
        assertEquals(-1.0, f.lower(), 0.0);
        assertEquals(1.0, f.upper(), 0.0);
    }

    @Test
    void degenerateValuesFallBackToUniformLevelsWithoutNaN() {
        float[] equal = new float[100];
        java.util.Arrays.fill(equal, 0.25f);
        for (float[] values : new float[][] {equal, new float[0]}) {
            Density f = DensityFit.normLess(values);
            assertInstanceOf(Uniform.class, f);
            for (LevelFitter fitter : new LevelFitter[] {
                new AlqCoordinateDescent(10, false), new AlqCoordinateDescent(10, true),
                new AlqProjectedGradient(50, 0.1), new AmqExponential()}) {
                FittedLevels fit = fitter.fit(f, 8);
                assertFalse(Double.isNaN(fit.proxy()), fitter.getClass().getSimpleName());
                for (double l : fit.levels()) {
                    assertFalse(Double.isNaN(l), fit.toString());
                }
            }
            assertArrayEquals(StartingLevels.uniform(8), new AlqCoordinateDescent(10, false).fit(f, 8).levels(),
                    1e-12);
        }
    }

    @Test
    void normBasedKeepsTheLargestNormBucketsWeightedByNorm() {
        double[] means = {0.0, 0.5, -0.3, 0.2};
        double[] stds = {0.1, 0.2, 0.3, 0.0};
        double[] norms = {1.0, 3.0, 2.0, 10.0};
        // Bucket 3 has no spread and is skipped; of the rest, the two largest norms are buckets 1 and 2.
        Mixture f = assertInstanceOf(Mixture.class, DensityFit.normBased(means, stds, norms, 2));
        assertArrayEquals(new double[] {0.6, 0.4}, f.weights(), 1e-15);
        Mixture expected = new Mixture(new Density[] {
            new TruncatedNormal(0.5, 0.2, -1, 1), new TruncatedNormal(-0.3, 0.3, -1, 1)}, new double[] {0.6, 0.4});
        for (double x = -1; x <= 1; x += 0.25) {
            assertEquals(expected.cdf(x), f.cdf(x), 1e-15, "x=" + x);
        }
        FittedLevels fit = new AlqCoordinateDescent(10, false).fit(f, 8);
        assertTrue(fit.proxy() < VarianceProxy.value(f, StartingLevels.uniform(8)));
    }

    @Test
    void normBasedWithoutUsableBucketsIsUniform() {
        assertInstanceOf(Uniform.class,
                DensityFit.normBased(new double[] {0.1}, new double[] {0.0}, new double[] {1.0}, 4));
        assertInstanceOf(TruncatedNormal.class,
                DensityFit.normBased(new double[] {0.1, 0.2}, new double[] {0.1, 0.1}, new double[] {1.0, 0.5}, 1));
    }
}
