package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class FloatCastTest {
    @Test
    void payloadIsOneCodePerValue() {
        Map<String, Integer> widths = Map.of("fp16", 16, "bf16", 16, "fp8", 8);
        for (var e : widths.entrySet()) {
            for (int n : new int[] {0, 1, 3, 101}) {
                Payload p = Compressors.create(e.getKey(), Map.of(), 1).encode(TestGradients.gaussian(n, n), 0, n);
                assertEquals((long) e.getValue() * n, p.bits(), e.getKey());
                assertEquals((p.bits() + 7) / 8, p.bytes().length);
                assertEquals(n, p.elements());
            }
        }
    }

    @Test
    void nearestRoundTripMatchesTheCodecValueByValue() {
        float[] g = TestGradients.gaussian(257, 2);
        g[0] = 70000f;
        g[1] = Float.NaN;
        g[2] = 0x1.0p-25f;
        Compressor c = Compressors.create("fp16", Map.of("rounding", "nearest"), 1);
        Payload p = c.encode(g, 0, g.length);
        assertEquals(FloatFormat.FP16.encodeNearest(g[5]), (p.bytes()[10] & 0xFF) | (p.bytes()[11] & 0xFF) << 8);
        float[] out = new float[g.length];
        c.decode(p, out, 0);
        assertEquals(65504f, out[0]);
        assertEquals(Float.NaN, out[1]);
        assertEquals(0f, out[2]);
        for (int i = 3; i < g.length; i++) {
            assertEquals(FloatFormat.FP16.decode(FloatFormat.FP16.encodeNearest(g[i])), out[i], "value " + i);
        }
    }

    @Test
    void stochasticDecodesToANeighbourAndAllReduces() {
        float[] g = TestGradients.gaussian(100, 3);
        Compressor c = Compressors.create("fp8", Map.of(), 5);
        assertEquals(Aggregation.ALL_REDUCE, c.aggregation());
        float[] out = new float[g.length];
        c.decode(c.encode(g, 0, g.length), out, 0);
        FloatFormat f = FloatFormat.E5M2;
        for (int i = 0; i < g.length; i++) {
            float down = f.decode(f.encode(g[i], 0));
            float up = f.decode(f.encode(g[i], 0xFFFFFFFFL));
            assertEquals(true, out[i] == down || out[i] == up, g[i] + " → " + out[i]);
        }
    }

    @Test
    void aSeedAndStreamDetermineThePayload() throws IOException {
        float[] g = TestGradients.gaussian(333, 8);
        Compressor a = Compressors.create("bf16", Map.of(), 21).copy(3);
        byte[] first = a.encode(g, 0, g.length).copy().bytes();
        assertArrayEquals(first, Compressors.create("bf16", Map.of(), 21).copy(3).encode(g, 0, g.length).bytes());
        assertFalse(Arrays.equals(first, a.copy(4).encode(g, 0, g.length).bytes()), "another stream differs");
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        a.saveState(new DataOutputStream(state));
        byte[] second = a.encode(g, 0, g.length).copy().bytes();
        assertFalse(Arrays.equals(first, second), "the next draw differs");
        Compressor restored = Compressors.create("bf16", Map.of(), 21).copy(3);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
        assertArrayEquals(second, restored.encode(g, 0, g.length).bytes());
        a.reset();
        assertArrayEquals(first, a.encode(g, 0, g.length).bytes(), "reset restarts the stream");
    }

    @Test
    void badParametersFail() {
        assertEquals("rounding must be one of [stochastic, nearest], found 'up'", assertThrows(ConfigException.class,
                () -> Compressors.create("fp16", Map.of("rounding", "up"), 1)).getMessage());
        assertEquals(Map.of("rounding", "stochastic"), Compressors.create("fp8", Map.of(), 1).config());
    }

    @Test
    void sharedParametersHaveOneTypeAndDefaultAcrossMethods() {
        // The trainer's schema keeps the first declaration of a key name and fills its default in for every method.
        java.util.Map<String, org.gridrun.engine.config.ConfigKey> seen = new java.util.HashMap<>();
        for (String name : java.util.List.of("fp16", "bf16", "fp8", "s2fp8", "smaq", "signsgd", "efsignsgd", "signum",
                "onebit", "qsgd")) {
            for (org.gridrun.engine.config.ConfigKey key : Compressors.provider(name).parameters()) {
                org.gridrun.engine.config.ConfigKey first = seen.putIfAbsent(key.name(), key);
                if (first != null) {
                    assertEquals(first.type(), key.type(), name + " " + key.name());
                    assertEquals(first.defaultValue(), key.defaultValue(), name + " " + key.name());
                }
            }
        }
    }
}
