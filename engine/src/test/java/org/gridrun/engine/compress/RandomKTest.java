package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.random.CounterRng;
import org.junit.jupiter.api.Test;

class RandomKTest {
    private static Compressor randomk(double ratio, long seed) {
        return Compressors.create("randomk", Map.of("ratio", ratio), seed);
    }

    private static int nonZeros(float[] v) {
        int count = 0;
        for (float x : v) {
            count += x != 0f ? 1 : 0;
        }
        return count;
    }

    @Test
    void decodedMeanOverStepsIsTheGradientWithinFiveStandardErrors() {
        int n = 50;
        int steps = 2000;
        float[] g = TestGradients.gaussian(n, 11);
        Compressor c = randomk(0.1, 3).copy(0);
        double[] sum = new double[n];
        for (int t = 0; t < steps; t++) {
            float[] out = TestGradients.roundTrip(c, g);
            for (int i = 0; i < n; i++) {
                sum[i] += out[i];
            }
        }
        for (int i = 0; i < n; i++) {
            double standardError = Math.abs(g[i]) * Math.sqrt((n / 5.0 - 1) / steps);
            assertEquals(g[i], sum[i] / steps, 5 * standardError + 1e-6, "value " + i);
        }
    }

    /**
     * The kept positions are those of Floyd's algorithm as a textbook writes it (a set of taken positions, then a
     * sort) on the shared stream, step after step, whatever the encoder keeps them in; sizes around a 64-bit word.
     */
    @Test
    void thePositionsAreFloydsSampleOfTheSharedStream() {
        for (int n : new int[] {1, 63, 64, 65, 130, 1000, 100_003}) {
            for (double ratio : new double[] {0.01, 0.3, 1.0}) {
                Compressor c = randomk(ratio, 21).copy(4);
                CounterRng shared = new CounterRng(21, RandomK.SHARED_STREAM);
                float[] g = new float[n];
                java.util.Arrays.fill(g, 1f);
                int k = (int) Math.min(n, Math.ceil(ratio * n));
                for (int step = 0; step < 3; step++) {
                    java.util.Set<Integer> taken = new java.util.HashSet<>();
                    for (int j = n - k; j < n; j++) {
                        int t = shared.nextInt(j + 1);
                        taken.add(taken.contains(t) ? j : t);
                    }
                    float[] out = TestGradients.roundTrip(c, g);
                    for (int i = 0; i < n; i++) {
                        assertEquals(taken.contains(i), out[i] != 0f, "n " + n + ", ratio " + ratio + ", step "
                                + step + ", position " + i);
                    }
                }
            }
        }
    }

    @Test
    void workersKeepTheSamePositionsInAStepAndNewOnesInTheNext() {
        Compressor prototype = randomk(0.05, 8);
        Compressor a = prototype.copy(0);
        Compressor b = prototype.copy(1);
        float[] ga = TestGradients.gaussian(400, 1);
        float[] gb = TestGradients.gaussian(400, 2);
        float[] previous = null;
        for (int t = 0; t < 5; t++) {
            float[] outA = TestGradients.roundTrip(a, ga);
            float[] outB = TestGradients.roundTrip(b, gb);
            assertEquals(20, nonZeros(outA));
            for (int i = 0; i < 400; i++) {
                assertEquals(outA[i] != 0f, outB[i] != 0f, "step " + t + ", value " + i);
                if (outA[i] != 0f) {
                    assertEquals(ga[i] * 20f, outA[i], 1e-5f);
                }
            }
            if (previous != null) {
                assertNotEquals(java.util.Arrays.toString(previous), java.util.Arrays.toString(outA));
            }
            previous = outA;
        }
        assertEquals(Aggregation.ALL_REDUCE, a.aggregation());
    }

    @Test
    void payloadIsThirtyTwoBitsPerKeptValue() {
        for (int n : new int[] {1, 3, 100, 1001}) {
            Payload p = randomk(0.01, 1).encode(TestGradients.gaussian(n, n), 0, n);
            assertEquals(32L * (int) Math.ceil(0.01 * n), p.bits());
            assertEquals((p.bits() + 7) / 8, p.bytes().length);
        }
    }

    @Test
    void savedStateContinuesIdentically() throws IOException {
        Compressor c = randomk(0.1, 5).copy(2);
        float[] g = TestGradients.gaussian(100, 4);
        for (int t = 0; t < 3; t++) {
            TestGradients.roundTrip(c, g);
        }
        byte[] state = SparseTesting.save(c);
        Compressor resumed = randomk(0.1, 5).copy(2);
        SparseTesting.restore(resumed, state);
        for (int t = 0; t < 3; t++) {
            assertArrayEquals(TestGradients.roundTrip(c, g), TestGradients.roundTrip(resumed, g));
        }
        c.reset();
        Compressor fresh = randomk(0.1, 5).copy(7);
        assertArrayEquals(TestGradients.roundTrip(fresh, g), TestGradients.roundTrip(c, g));
    }

    @Test
    void ratioAboveOneFailsNamingIt() {
        ConfigException e = assertThrows(ConfigException.class, () -> randomk(2, 1));
        assertTrue(e.getMessage().startsWith("ratio must be in (0, 1]"), e.getMessage());
    }
}
