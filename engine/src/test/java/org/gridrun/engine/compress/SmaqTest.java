package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class SmaqTest {
    private static Compressor smaq(long seed) {
        return Compressors.create("smaq", Map.of(), seed);
    }

    /** z of every value, from the statistics the payload carries. */
    private static float[] z(Payload p, float[] g) {
        float mean = LittleEndian.getFloat(p.bytes(), 0);
        float std = LittleEndian.getFloat(p.bytes(), 4);
        float[] z = new float[g.length];
        for (int i = 0; i < g.length; i++) {
            z[i] = (g[i] - mean) / std;
        }
        return z;
    }

    /** The escape width {@code W} the header carries. */
    private static int escapeWidth(Payload p) {
        return p.bytes()[8] & 0xFF;
    }

    @Test
    void mainValuesCostSixBitsOutliersEightAndEscapesTheirWidthMore() {
        for (int n : new int[] {1, 5, 100, 1001, 20000}) {
            float[] g = TestGradients.gaussian(n, n);
            Payload p = smaq(1).encode(g, 0, n);
            long expected = 72;
            int outliers = 0;
            int escapes = 0;
            for (float v : z(p, g)) {
                expected += Math.abs(v) > 1 ? 8 : 6;
                outliers += Math.abs(v) > 1 ? 1 : 0;
                escapes += (Math.abs(v) - 1) * 42 > 62 ? 1 : 0;
            }
            expected += (long) escapeWidth(p) * escapes;
            assertEquals(expected, p.bits(), "n " + n);
            assertEquals(72, p.sideBits(), "the header is the side information");
            assertEquals((p.bits() + 7) / 8, p.bytes().length);
            assertTrue(n < 100 || outliers > n / 5, "a Gaussian has about 32% outliers");
            assertTrue(n < 20000 || escapes > n / 200 && escapeWidth(p) > 0, "and about 1.3% beyond 2.48");
        }
    }

    @Test
    void statisticsAreTheMeanAndPopulationDeviation() {
        Payload p = smaq(1).encode(new float[] {1, 3, 5, 7}, 0, 4);
        assertEquals(4f, LittleEndian.getFloat(p.bytes(), 0));
        assertEquals((float) Math.sqrt(5), LittleEndian.getFloat(p.bytes(), 4));
    }

    @Test
    void decodedValuesLieWithinOneQuantisationStep() {
        float[] g = TestGradients.gaussian(2000, 4);
        g[7] = 40f;
        g[8] = -25f;
        Compressor c = smaq(2);
        Payload p = c.encode(g, 0, g.length);
        float std = LittleEndian.getFloat(p.bytes(), 4);
        float[] z = z(p, g);
        float[] out = new float[g.length];
        c.decode(p, out, 0);
        for (int i = 0; i < g.length; i++) {
            double step = std * (Math.abs(z[i]) > 1 ? 1.0 / 42 : 1.0 / 15);
            assertTrue(Math.abs(out[i] - g[i]) <= step * (1 + 1e-4), i + ": " + g[i] + " → " + out[i]);
        }
    }

    @Test
    void escapesCarryFarOutliersOnTheOutlierGrid() {
        float[] g = new float[100];
        g[0] = 1000f;
        g[1] = -1000f;
        Compressor c = smaq(3);
        Payload p = c.encode(g, 0, g.length);
        float std = LittleEndian.getFloat(p.bytes(), 4);
        float[] out = new float[g.length];
        c.decode(p, out, 0);
        // z = ±7.07, t = 6.07·42 = 254.9: e = t − 62 ≤ 193 takes 8 bits after each 8-bit code
        assertEquals(8, escapeWidth(p));
        assertEquals(72 + 2 * (8 + 8) + 98 * 6, p.bits());
        assertEquals(1000f, out[0], std / 42 * 1.0001f);
        assertEquals(-1000f, out[1], std / 42 * 1.0001f);
    }

    @Test
    void clampSaturatesAtTwoAndAHalfDeviationsAsThePaperSays() {
        float[] g = new float[100];
        g[0] = 1000f;
        g[1] = -1000f;
        Compressor c = Compressors.create("smaq", Map.of("outliers", "clamp"), 3);
        Payload p = c.encode(g, 0, g.length);
        float mean = LittleEndian.getFloat(p.bytes(), 0);
        float std = LittleEndian.getFloat(p.bytes(), 4);
        float[] out = new float[g.length];
        c.decode(p, out, 0);
        assertEquals(mean + 2.5f * std, out[0], 1e-3f * std);
        assertEquals(mean - 2.5f * std, out[1], 1e-3f * std);
        assertEquals(0, escapeWidth(p));
        assertEquals(72 + 2 * 8 + 98 * 6, p.bits());
    }

    @Test
    void everyValueIsUnbiasedEscapesIncluded() {
        float[] g = TestGradients.gaussian(64, 9);
        g[0] = 0f;
        g[1] = 30f;
        g[2] = -12f;
        Compressor c = smaq(5);
        int draws = 4000;
        double[] sum = new double[g.length];
        float[] out = new float[g.length];
        float[] z = null;
        float std = 0;
        for (int r = 0; r < draws; r++) {
            Payload p = c.encode(g, 0, g.length);
            z = z(p, g);
            std = LittleEndian.getFloat(p.bytes(), 4);
            c.decode(p, out, 0);
            for (int i = 0; i < g.length; i++) {
                sum[i] += out[i];
            }
        }
        assertTrue(Math.abs(z[1]) > 2.5 && Math.abs(z[2]) > 2.5, "two values escape");
        for (int i = 0; i < g.length; i++) {
            double step = std * (Math.abs(z[i]) > 1 ? 1.0 / 42 : 1.0 / 15);
            double tolerance = 5 * step / 2 / Math.sqrt(draws) + 1e-5 * Math.abs(g[i]) + 1e-6;
            assertEquals(g[i], sum[i] / draws, tolerance, "value " + i);
        }
    }

    @Test
    void sampledStatisticsComeFromTheStream() throws IOException {
        float[] g = TestGradients.gaussian(500, 6);
        Compressor a = Compressors.create("smaq", Map.of("num_samples", 50L), 7).copy(2);
        byte[] first = a.encode(g, 0, g.length).copy().bytes();
        assertFalse(Arrays.equals(first, smaq(7).copy(2).encode(g, 0, g.length).bytes()), "sampled stats differ");
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        a.saveState(new DataOutputStream(state));
        byte[] second = a.encode(g, 0, g.length).copy().bytes();
        Compressor b = Compressors.create("smaq", Map.of("num_samples", 50L), 7).copy(2);
        assertArrayEquals(first, b.encode(g, 0, g.length).copy().bytes(), "same seed and stream, same payload");
        Compressor restored = Compressors.create("smaq", Map.of("num_samples", 50L), 7).copy(2);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
        assertArrayEquals(second, restored.encode(g, 0, g.length).bytes());
        assertFalse(Arrays.equals(first, a.copy(3).encode(g, 0, g.length).bytes()), "another stream differs");
    }

    @Test
    void constantVectorsDecodeToTheirMean() {
        float[] g = {2f, 2f, 2f};
        Compressor c = smaq(1);
        float[] out = new float[3];
        c.decode(c.encode(g, 0, 3), out, 0);
        assertArrayEquals(g, out);
    }

    /**
     * Subnormal values whose σ is too small to invert (1/σ overflows) encode as a zero σ does, every value as its
     * mean, 6 bits each: an infinite inverse once made every value past the escape limit of 0 an escape that the
     * counts did not size.
     */
    @Test
    void aDeviationTooSmallToInvertEncodesEveryValueAsTheMean() {
        float[] g = new float[101];
        for (int i = 0; i < g.length; i++) {
            g[i] = Float.MIN_VALUE * (i % 21 - 10);
        }
        Compressor c = smaq(1);
        Payload p = c.encode(g, 0, g.length);
        assertEquals(Smaq.HEADER + 6L * g.length, p.bits());
        float[] out = new float[g.length];
        c.decode(p, out, 0);
        float mean = LittleEndian.getFloat(p.bytes(), 0);
        for (float v : out) {
            assertEquals(mean, v, 0f, "±0 alike");
        }
    }

    @Test
    void badParametersFail() {
        assertEquals("num_samples must be in [0, 2147483647], found -3", assertThrows(ConfigException.class,
                () -> Compressors.create("smaq", Map.of("num_samples", -3L), 1)).getMessage());
        assertEquals("outliers must be one of [escape, clamp], found 'drop'", assertThrows(ConfigException.class,
                () -> Compressors.create("smaq", Map.of("outliers", "drop"), 1)).getMessage());
        assertEquals(Aggregation.ALL_GATHER, smaq(1).aggregation());
    }
}
