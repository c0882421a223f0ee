package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.Map;
import java.util.stream.IntStream;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class TopKTest {
    private static Compressor topk(double ratio) {
        return Compressors.create("topk", Map.of("ratio", ratio), 1);
    }

    /** The oracle: a full sort by magnitude (larger first, then lower index), kept values copied. */
    private static float[] expected(float[] g, int k) {
        float[] out = new float[g.length];
        IntStream.range(0, g.length).boxed()
                .sorted(Comparator.<Integer>comparingDouble(i -> -Math.abs(g[i])).thenComparing(i -> i))
                .limit(k).forEach(i -> out[i] = g[i]);
        return out;
    }

    @Test
    void keepsExactlyTheLargestMagnitudesAndZeroesTheRest() {
        for (int n : new int[] {1, 2, 7, 100, 1000, 4099}) {
            float[] g = TestGradients.gaussian(n, n);
            for (double ratio : new double[] {0.001, 0.01, 0.1, 0.5, 1.0}) {
                int k = (int) Math.ceil(ratio * n);
                assertArrayEquals(expected(g, k), TestGradients.roundTrip(topk(ratio), g), n + "/" + ratio);
            }
        }
    }

    @Test
    void tiesAreBrokenByPositionSoTheSetIsDeterministic() {
        float[] g = new float[50];
        for (int i = 0; i < g.length; i++) {
            g[i] = (i % 2 == 0 ? 1f : -1f) * (i % 5);
        }
        float[] out = TestGradients.roundTrip(topk(0.2), g);
        assertArrayEquals(expected(g, 10), out);
    }

    /** Magnitudes that share their high 16 bits, and a NaN, which ranks above infinity (the radix selection's cases). */
    @Test
    void closeMagnitudesInfinityAndNaNRankAsTheOracleSays() {
        float[] g = new float[300];
        for (int i = 0; i < g.length; i++) {
            g[i] = (i % 3 == 0 ? -1f : 1f) * Float.intBitsToFloat(0x3F800000 + (i * 7919) % 97);
        }
        g[17] = Float.NaN;
        g[200] = Float.NEGATIVE_INFINITY;
        for (int k : new int[] {1, 2, 3, 50, 299}) {
            float[] out = TestGradients.roundTrip(topk(k / 300.0), g);
            assertTrue(Float.isNaN(out[17]), "NaN kept, k " + k);
            assertEquals(k >= 2 ? Float.NEGATIVE_INFINITY : 0f, out[200], "k " + k);
            out[17] = 0f;
            float[] expected = new float[g.length];
            IntStream.range(0, g.length).filter(i -> i != 17).boxed()
                    .sorted(Comparator.<Integer>comparingDouble(i -> -Math.abs(g[i])).thenComparing(i -> i))
                    .limit(k - 1).forEach(i -> expected[i] = g[i]);
            assertArrayEquals(expected, out, "k " + k);
        }
    }

    @Test
    void payloadHoldsExactlyTheReportedBits() {
        for (int n : new int[] {1, 2, 3, 100, 1024, 1025}) {
            Payload p = topk(0.05).encode(TestGradients.gaussian(n, 3), 0, n);
            int k = (int) Math.ceil(0.05 * n);
            assertEquals((long) k * (SparseTesting.ceilLog2(n) + 32), p.bits(), "n " + n);
            assertEquals((p.bits() + 7) / 8, p.bytes().length);
        }
    }

    @Test
    void encodesASliceAndDecodesAtAnOffset() {
        float[] g = TestGradients.gaussian(300, 9);
        Compressor c = topk(0.1);
        float[] out = new float[120];
        c.decode(c.encode(g, 100, 100), out, 20);
        float[] slice = java.util.Arrays.copyOfRange(g, 100, 200);
        assertArrayEquals(expected(slice, 10), java.util.Arrays.copyOfRange(out, 20, 120));
    }

    @Test
    void ratioOutsideZeroToOneFailsNamingIt() {
        for (double bad : new double[] {0.0, -0.5, 1.5, Double.NaN}) {
            ConfigException e = assertThrows(ConfigException.class, () -> topk(bad));
            assertTrue(e.getMessage().startsWith("ratio must be in (0, 1]"), e.getMessage());
        }
    }
}
