package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class FloatShiftSqueezeTest {
    private static Compressor s2fp8(Map<String, ?> params) {
        return Compressors.create("s2fp8", params.isEmpty() ? Map.of("rounding", "nearest") : params, 1);
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    @Test
    void squeezeAndShiftMapTheMeanToZeroAndTheMaxToFifteen() {
        float[] g = TestGradients.gaussian(1000, 2);
        g[3] = 0f;
        Payload p = s2fp8(Map.of()).encode(g, 0, g.length);
        assertEquals(64 + 8 * 1000, p.bits());
        double sum = 0;
        double max = Double.NEGATIVE_INFINITY;
        for (float v : g) {
            if (v != 0f) {
                sum += log2(Math.abs(v));
                max = Math.max(max, log2(Math.abs(v)));
            }
        }
        double mean = sum / 999;
        double alpha = LittleEndian.getFloat(p.bytes(), 0);
        double beta = LittleEndian.getFloat(p.bytes(), 4);
        assertEquals(15, alpha * max + beta, 1e-4);
        assertEquals(0, alpha * mean + beta, 1e-4);
    }

    @Test
    void roundTripErrorIsBoundedByE5m2s() {
        float[] g = TestGradients.gaussian(1000, 3);
        g[0] = 0f;
        g[1] = Float.NaN;
        Compressor c = s2fp8(Map.of("rounding", "nearest"));
        Payload p = c.encode(g, 0, g.length);
        double alpha = LittleEndian.getFloat(p.bytes(), 0);
        double beta = LittleEndian.getFloat(p.bytes(), 4);
        float[] out = new float[g.length];
        c.decode(p, out, 0);
        assertEquals(0f, out[0]);
        assertTrue(Float.isNaN(out[1]));
        int checked = 0;
        // E5M2 nearest has relative error at most 2^-3 for normal values (shifted exponent ≥ −14); in the log
        // domain that is log2(1 + 2^-3), divided by α on the way back.
        double bound = Math.pow(1 + 0x1.0p-3, 1 / alpha) - 1 + 1e-5;
        for (int i = 2; i < g.length; i++) {
            if (alpha * log2(Math.abs(g[i])) + beta >= -14) {
                assertTrue(Math.abs(out[i] - g[i]) <= bound * Math.abs(g[i]), i + ": " + g[i] + " → " + out[i]);
                assertEquals(Math.signum(g[i]), Math.signum(out[i]));
                checked++;
            }
        }
        assertTrue(checked > 900, "most values lie in E5M2's normal range, found " + checked);
    }

    @Test
    void boundLayoutGivesEachTensorItsOwnShiftAndSqueeze() {
        float[] g = new float[30];
        for (int i = 0; i < 30; i++) {
            g[i] = (i < 10 ? 1e-6f : 1e3f) * (1 + 0.1f * (i % 7));
        }
        Compressor c = s2fp8(Map.of()).copy(0);
        c.bind(TensorLayout.of(List.of("w", "b"), List.of(new int[] {2, 5}, new int[] {20})));
        Payload p = c.encode(g, 0, 30);
        assertEquals(2 * 64 + 8 * 30, p.bits());
        assertFalse(LittleEndian.getFloat(p.bytes(), 4) == LittleEndian.getFloat(p.bytes(), 12), "own shifts");
        float[] out = new float[30];
        c.decode(p, out, 0);
        float[] alone = new float[30];
        Compressor flat = s2fp8(Map.of());
        flat.decode(flat.encode(g, 0, 10), alone, 0);
        flat.decode(flat.encode(g, 10, 20), alone, 10);
        assertArrayEquals(alone, out, "each tensor decodes as if encoded alone");
        assertEquals(1e-6f, out[0], 1e-6f * 0.13f);
    }

    @Test
    void oneMagnitudeMapsToOne() {
        float[] g = {-4f, 4f, 0f};
        Compressor c = s2fp8(Map.of());
        Payload p = c.encode(g, 0, 3);
        assertEquals(1f, LittleEndian.getFloat(p.bytes(), 0));
        assertEquals(-2f, LittleEndian.getFloat(p.bytes(), 4));
        float[] out = new float[3];
        c.decode(p, out, 0);
        assertArrayEquals(g, out);
    }

    @Test
    void stochasticRoundingFollowsTheStream() {
        float[] g = TestGradients.gaussian(200, 4);
        Compressor a = s2fp8(Map.of("rounding", "stochastic")).copy(1);
        byte[] first = a.encode(g, 0, g.length).copy().bytes();
        assertArrayEquals(first, s2fp8(Map.of("rounding", "stochastic")).copy(1).encode(g, 0, g.length).bytes());
        assertFalse(Arrays.equals(first, a.encode(g, 0, g.length).bytes()), "the next draw differs");
        a.reset();
        assertArrayEquals(first, a.encode(g, 0, g.length).bytes());
    }

    @Test
    void badParametersFail() {
        assertEquals("rounding must be one of [stochastic, nearest], found 'even'", assertThrows(
                ConfigException.class, () -> s2fp8(Map.of("rounding", "even"))).getMessage());
        assertEquals(Map.of("rounding", "stochastic"), Compressors.create("s2fp8", Map.of(), 1).config());
        assertEquals(Aggregation.ALL_GATHER, s2fp8(Map.of()).aggregation());
    }
}
