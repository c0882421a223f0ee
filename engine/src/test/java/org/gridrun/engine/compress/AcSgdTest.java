package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class AcSgdTest {
    private static Compressor acsgd(Map<String, Object> extra) {
        Map<String, Object> params = new HashMap<>(Map.of("ratio", 0.05, "bits", 4L, "sample_ratio", 1.0));
        params.putAll(extra);
        return Compressors.create("acsgd", params, 7);
    }

    /** The bare method, without the error-feedback wrapper its provider adds. */
    private static AcSgd bare(boolean adapt) {
        return new AcSgd(0.05, 4, adapt, 1.0, 7, 0);
    }

    private static float[] scaled(float[] g, float factor) {
        float[] s = new float[g.length];
        for (int i = 0; i < g.length; i++) {
            s[i] = g[i] * factor;
        }
        return s;
    }

    @Test
    void theBitsFollowTheNormAndTheKeptCountKeepsTheBudget() {
        // n = 1000: w = 10, k0 = 50, budget T = 50·(10 + 4) = 700 bits.
        float[] g = TestGradients.gaussian(1000, 1);
        AcSgd q = bare(true);
        Payload first = q.encode(g, 0, 1000);
        assertEquals(4, q.lastBits());
        int k = (int) ((first.bits() - 3 - 10 - 32) / (10 + 4));
        assertTrue(k <= 50 && k >= 35, "about k0 values at the base bits: " + k);
        assertEquals(AcSgd.payloadBits(1000, k, 4), first.bits());

        q.encode(scaled(g, 0.25f), 0, 1000);
        assertEquals(6, q.lastBits(), "two halvings of the norm: two more bits");
        assertEquals(700 / (10 + 6), q.keptFor(1000, 6));
        q.encode(scaled(g, 4f), 0, 1000);
        assertEquals(2, q.lastBits(), "two doublings: two fewer");
        assertEquals(700 / (10 + 2), q.keptFor(1000, 2));
        q.encode(scaled(g, 1e-6f), 0, 1000);
        assertEquals(8, q.lastBits(), "at most 8 bits");
        assertTrue(q.keptFor(1000, 8) * (10 + 8) <= 700);

        AcSgd fixed = bare(false);
        fixed.encode(g, 0, 1000);
        fixed.encode(scaled(g, 0.25f), 0, 1000);
        assertEquals(4, fixed.lastBits(), "adapt: false keeps the base bits");
        assertEquals(50, fixed.keptFor(1000, 4));
    }

    @Test
    void keptValuesAreTheLargestAndDecodeOntoTheirLevels() {
        float[] g = TestGradients.gaussian(1000, 2);
        AcSgd q = bare(false);
        Payload p = q.encode(g, 0, 1000);
        float[] out = new float[1000];
        q.decode(p, out, 0);
        float scale = 0;
        float smallestKept = Float.POSITIVE_INFINITY;
        float largestDropped = 0;
        for (int i = 0; i < 1000; i++) {
            if (out[i] != 0f) {
                scale = Math.max(scale, Math.abs(g[i]));
                smallestKept = Math.min(smallestKept, Math.abs(g[i]));
            } else {
                largestDropped = Math.max(largestDropped, Math.abs(g[i]));
            }
        }
        for (int i = 0; i < 1000; i++) {
            if (out[i] != 0f) {
                double level = (out[i] / scale + 1) / 2 * 15;
                assertEquals(Math.round(level), level, 1e-4, "value " + i + " on a 4-bit level");
                assertTrue(Math.abs(out[i] - g[i]) <= 2 * scale / 15 + 1e-6, "within one level spacing");
            }
        }
        assertTrue(smallestKept >= largestDropped * 0.8, "the largest magnitudes are kept, up to the sampled "
                + "threshold: " + smallestKept + " vs " + largestDropped);
    }

    @Test
    void aSampleThatOverestimatesTheThresholdStillKeepsTheExactTopK() {
        float[] g = TestGradients.gaussian(10_000, 21);
        Compressor prototype = Compressors.create("acsgd", Map.of("ratio", 0.3, "bits", 4L, "adapt", false,
                "sample_ratio", 0.001), 3);
        for (int stream = 0; stream < 20; stream++) {
            float[] out = TestGradients.roundTrip(prototype.copy(stream), g);
            int kept = 0;
            for (float x : out) {
                kept += x != 0f ? 1 : 0;
            }
            assertEquals(3000, kept, "stream " + stream + ": 16 levels without zero, so every kept value shows");
        }
    }

    @Test
    void theProviderAlwaysAddsErrorFeedback() {
        Compressor c = acsgd(Map.of());
        assertInstanceOf(ErrorFeedback.class, c);
        assertEquals(true, c.config().get(ErrorFeedback.PARAMETER));
        Compressor asked = acsgd(Map.of(ErrorFeedback.PARAMETER, true));
        assertEquals(c.toString(), asked.toString(), "error_feedback: true does not wrap it twice");
        float[] g = TestGradients.gaussian(400, 3);
        Compressor worker = c.copy(1);
        float[] sent = new float[400];
        float[] out = new float[400];
        for (int t = 0; t < 5; t++) {
            worker.decode(worker.encode(g, 0, 400), out, 0);
            for (int i = 0; i < 400; i++) {
                sent[i] += out[i];
            }
        }
        float[] residual = ((ErrorFeedback) worker).memory();
        for (int i = 0; i < 400; i++) {
            assertEquals(5 * g[i], sent[i] + residual[i], 1e-4, "what was sent plus the residual is the sum, " + i);
        }
    }

    @Test
    void payloadsAreExactDeterministicAndRestorable() throws IOException {
        float[] g = TestGradients.gaussian(301, 9);
        Compressor c = acsgd(Map.of("ratio", 0.1));
        for (int n : new int[] {0, 1, 2, 301}) {
            Payload p = c.copy(0).encode(g, 0, n);
            assertEquals((p.bits() + 7) / 8, p.bytes().length);
        }
        LevelOracle.assertDeterministic(c, g);
        LevelOracle.assertRestoredContinues(c, g);
        LevelOracle.assertRestoredContinues(acsgd(Map.of("adapt", false)), g);
    }

    @Test
    void badParametersFailNamingTheRule() {
        assertEquals("ratio must be in (0, 1], found 0.0", assertThrows(ConfigException.class,
                () -> acsgd(Map.of("ratio", 0.0))).getMessage());
        assertEquals("bits must be in [1, 8], found 9", assertThrows(ConfigException.class,
                () -> acsgd(Map.of("bits", 9L))).getMessage());
    }
}
