package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class NaturalCompressionTest {
    private static Compressor natural(long seed) {
        return Compressors.create("natural", Map.of(), seed);
    }

    /** The powers of two around {@code |x|}: {@code 2^floor(log2 |x|)} and twice it (0 and 2^-126 below normal). */
    private static double[] around(float x) {
        double a = Math.abs((double) x);
        if (a < Float.MIN_NORMAL) {
            return new double[] {0, Float.MIN_NORMAL};
        }
        double low = Math.scalb(1.0, Math.getExponent(a));
        return new double[] {low, 2 * low};
    }

    private static float[] values() {
        float[] g = TestGradients.gaussian(200, 7);
        g[0] = 0f;
        g[1] = 1.5e-40f;
        g[2] = -3e-39f;
        g[3] = 4f;
        g[4] = -0.75f;
        g[5] = 1e-30f;
        return g;
    }

    @Test
    void payloadHoldsNineBitsPerValue() {
        for (int n : new int[] {0, 1, 7, 8, 1001}) {
            LevelOracle.assertExactLength(natural(1), TestGradients.gaussian(n, n), 9L * n);
        }
    }

    @Test
    void everyValueBecomesASignedPowerOfTwoAroundIt() {
        float[] g = values();
        float[] out = TestGradients.roundTrip(natural(3), g);
        for (int i = 0; i < g.length; i++) {
            double[] pair = around(g[i]);
            double a = Math.abs((double) out[i]);
            assertTrue(a == pair[0] || a == pair[1], "value " + i + ": " + g[i] + " decoded as " + out[i]);
            assertTrue(out[i] == 0 || Math.signum(out[i]) == Math.signum(g[i]), "sign of value " + i);
            assertTrue(a == 0 || Math.scalb(1.0, Math.getExponent(a)) == a, out[i] + " is a power of two");
        }
        assertEquals(4f, out[3], "a power of two is sent exactly");
    }

    @Test
    void decodedValuesAreUnbiased() {
        float[] g = values();
        Compressor c = natural(11);
        int draws = 2000;
        double[] mean = new double[g.length];
        float[] out = new float[g.length];
        for (int r = 0; r < draws; r++) {
            c.decode(c.encode(g, 0, g.length), out, 0);
            for (int i = 0; i < g.length; i++) {
                mean[i] += out[i] / (double) draws;
            }
        }
        for (int i = 0; i < g.length; i++) {
            double[] pair = around(g[i]);
            double a = Math.abs((double) g[i]);
            double sigma = Math.sqrt((pair[1] - a) * (a - pair[0]));
            assertEquals(g[i], mean[i], 5 * sigma / Math.sqrt(draws) + 1e-6 * a, "value " + i);
        }
    }

    @Test
    void nonFiniteValuesDecodeAsNaNAndTheTopPowerStays() {
        float[] g = {Float.NaN, Float.POSITIVE_INFINITY, 1.5f * 0x1.0p127f, Float.MAX_VALUE};
        float[] out = TestGradients.roundTrip(natural(1), g);
        assertTrue(Float.isNaN(out[0]) && Float.isNaN(out[1]));
        assertEquals(0x1.0p127f, out[2]);
        assertEquals(0x1.0p127f, out[3]);
    }

    @Test
    void seedStreamAndSavedStateDetermineThePayload() throws IOException {
        float[] g = values();
        LevelOracle.assertDeterministic(natural(21), g);
        LevelOracle.assertRestoredContinues(natural(21), g);
    }

    @Test
    void theBranchFreeCodeIsTheDefinitions() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        int[] edges = {0, 1, 0x7FFFFF, 0x800000, 0x7F000000, 0x7F7FFFFF, 0x7F800000, 0x7FC00000, 0x80000000};
        int[] uniforms = {0, 1, 0x3FFFFF, 0x400000, 0x7FFFFE, 0x7FFFFF};
        for (int bits : edges) {
            for (int u : uniforms) {
                assertEquals(definition(bits, u), NaturalCompression.code(Float.intBitsToFloat(bits), u),
                        Integer.toHexString(bits) + " with " + u);
            }
        }
        for (int k = 0; k < 1_000_000; k++) {
            int bits = random.nextInt();
            int u = random.nextInt(1 << 23);
            assertEquals(definition(bits, u), NaturalCompression.code(Float.intBitsToFloat(bits), u),
                    Integer.toHexString(bits) + " with " + u);
        }
    }

    /** The code as the class comment defines it: the exponent goes up when the uniform is below the mantissa. */
    private static int definition(int bits, int u) {
        int exponent = bits >>> 23 & 0xFF;
        if (exponent < 254 && u < (bits & 0x7FFFFF)) {
            exponent++;
        }
        return bits >>> 31 | exponent << 1;
    }

    @Test
    void itTakesNoParameters() {
        assertEquals(Map.of(), natural(1).config());
        assertTrue(assertThrows(ConfigException.class, () -> Compressors.create("natural", Map.of("bits", 9L), 1))
                .getMessage().startsWith("unknown natural parameter 'bits'"));
    }
}
