package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class McgqTest {
    private static double l1(float[] g) {
        double l1 = 0;
        for (float x : g) {
            l1 += Math.abs(x);
        }
        return l1;
    }

    private static Compressor mcgq(long samples, long seed) {
        return Compressors.create("mcgq", Map.of("samples", samples), seed);
    }

    @ParameterizedTest
    @ValueSource(strings = {"systematic", "independent"})
    void meanOfTwoThousandDrawsIsTheGradientWithinFiveStandardErrors(String sampling) {
        int n = 20;
        int s = 5;
        int trials = 2000;
        float[] g = TestGradients.gaussian(n, 6);
        g[3] = 0f;
        double l1 = l1(g);
        double[] sum = new double[n];
        Compressor prototype = Compressors.create("mcgq", Map.of("samples", (long) s, "sampling", sampling), 1);
        for (int t = 0; t < trials; t++) {
            float[] out = TestGradients.roundTrip(prototype.copy(t), g);
            for (int i = 0; i < n; i++) {
                sum[i] += out[i];
            }
        }
        for (int i = 0; i < n; i++) {
            // with replacement: (‖g‖₁|g_i| − g_i²)/s; systematic: a count of ⌊s p_i⌋ or ⌈s p_i⌉, at most (‖g‖₁/s)²/4
            double variance = sampling.equals("independent") ? (l1 * Math.abs(g[i]) - (double) g[i] * g[i]) / s
                    : l1 * l1 / s / s / 4;
            double standardError = Math.sqrt(variance / trials);
            assertEquals(g[i], sum[i] / trials, 5 * standardError + 1e-6, "value " + i);
        }
        assertEquals(0.0, sum[3], "a zero value is never drawn");
    }

    @Test
    void systematicDrawsGiveEveryValueItsShareRoundedUpOrDown() {
        float[] g = TestGradients.gaussian(300, 8);
        double l1 = l1(g);
        int s = 1000;
        float[] out = TestGradients.roundTrip(mcgq(s, 4), g);
        for (int i = 0; i < g.length; i++) {
            double share = s * Math.abs(g[i]) / l1;
            double count = Math.abs(out[i]) * s / l1;
            assertTrue(count >= Math.floor(share) - 1e-3 && count <= Math.ceil(share) + 1e-3,
                    "value " + i + ": share " + share + ", drawn " + count);
        }
    }

    @Test
    void everyDrawIsASignedShareOfTheNorm() {
        float[] g = TestGradients.gaussian(100, 2);
        double l1 = l1(g);
        float[] out = TestGradients.roundTrip(mcgq(7, 3), g);
        double draws = 0;
        for (int i = 0; i < g.length; i++) {
            if (out[i] != 0f) {
                assertEquals(Math.signum(g[i]), Math.signum(out[i]));
                double count = Math.abs(out[i]) * 7 / l1;
                assertEquals(Math.rint(count), count, 1e-4);
                draws += Math.rint(count);
            }
        }
        assertEquals(7.0, draws);
    }

    @Test
    void payloadHoldsExactlyTheReportedBits() {
        for (int n : new int[] {1, 2, 100, 1024, 5000}) {
            float[] g = TestGradients.gaussian(n, n);
            for (long s : new long[] {1, 2, 17}) {
                Payload p = mcgq(s, 1).encode(g, 0, n);
                float[] out = new float[n];
                mcgq(s, 1).decode(p, out, 0);
                long d = Arrays.stream(toDouble(out)).filter(x -> x != 0).count();
                int countWidth = 32 - Integer.numberOfLeadingZeros((int) Math.min(s, n));
                int multiplicityWidth = s == 1 ? 0 : SparseTesting.ceilLog2((int) s);
                long bits = 32 + countWidth + d * (SparseTesting.ceilLog2(n) + 1 + multiplicityWidth);
                assertEquals(bits, p.bits(), n + "/" + s);
                assertEquals((p.bits() + 7) / 8, p.bytes().length);
            }
        }
    }

    private static double[] toDouble(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }

    @Test
    void drawsDependOnlyOnSeedStreamAndStep() throws IOException {
        float[] g = TestGradients.gaussian(500, 8);
        Compressor a = mcgq(0, 2).copy(1);
        Compressor b = mcgq(0, 2).copy(1);
        assertArrayEquals(TestGradients.roundTrip(a, g), TestGradients.roundTrip(b, g));
        assertFalse(Arrays.equals(TestGradients.roundTrip(mcgq(0, 2).copy(2), g),
                TestGradients.roundTrip(mcgq(0, 2).copy(1), g)));
        Compressor resumed = mcgq(0, 2).copy(1);
        SparseTesting.restore(resumed, SparseTesting.save(a));
        assertArrayEquals(TestGradients.roundTrip(a, g), TestGradients.roundTrip(resumed, g));
    }

    @Test
    void aZeroGradientSendsOnlyItsNorm() {
        float[] out = TestGradients.roundTrip(mcgq(3, 1), new float[10]);
        assertArrayEquals(new float[10], out);
    }

    @Test
    void negativeSamplesFailNamingThem() {
        ConfigException e = assertThrows(ConfigException.class, () -> mcgq(-1, 1));
        assertTrue(e.getMessage().startsWith("samples must be in [0, "), e.getMessage());
        assertEquals("sampling must be one of [systematic, independent], found 'stratified'", assertThrows(
                ConfigException.class, () -> Compressors.create("mcgq", Map.of("sampling", "stratified"), 1))
                .getMessage());
    }
}
