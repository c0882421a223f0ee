package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ErrorFeedbackTest {
    private static float[] gradient(SplittableRandom random, int n) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) random.nextGaussian();
        }
        return g;
    }

    @Test
    void whatWasSentPlusTheResidualIsWhatWasComputed() {
        Compressor ef = Compressors.create("qsgd", Map.of("bits", 2L, "bucket_size", 64L, "error_feedback", true), 3)
                .copy(1);
        assertInstanceOf(ErrorFeedback.class, ef);
        int n = 1000;
        double[] computed = new double[n];
        double[] sent = new double[n];
        float[] out = new float[n];
        SplittableRandom random = new SplittableRandom(5);
        for (int step = 0; step < 20; step++) {
            float[] g = gradient(random, n);
            Payload p = ef.encode(g, 0, n);
            ef.decode(p, out, 0);
            for (int i = 0; i < n; i++) {
                computed[i] += g[i];
                sent[i] += out[i];
            }
        }
        float[] memory = ((ErrorFeedback) ef).memory();
        double worst = 0;
        double scale = 0;
        for (int i = 0; i < n; i++) {
            worst = Math.max(worst, Math.abs(computed[i] - sent[i] - memory[i]));
            scale = Math.max(scale, Math.abs(sent[i]) + Math.abs(memory[i]));
        }
        // float32 residual arithmetic: exact up to rounding relative to the magnitudes summed
        assertTrue(worst <= 1e-5 * scale * 20, "sum(g) - sum(sent) - residual = " + worst + " at scale " + scale);
    }

    @Test
    void theFirstPayloadIsTheInnerMethodsAndTheConfigSaysFeedback() {
        Compressor plain = Compressors.create("qsgd", Map.of("bits", 3L), 9).copy(2);
        Compressor ef = Compressors.create("qsgd", Map.of("bits", 3L, "error_feedback", true), 9).copy(2);
        float[] g = gradient(new SplittableRandom(1), 300);
        assertArrayEquals(plain.encode(g, 0, 300).bytes(), ef.encode(g, 0, 300).bytes());
        assertEquals(true, ef.config().get("error_feedback"));
        assertEquals(3L, ef.config().get("bits"));
    }

    /** The inner method's diagnostics (jointsq's width shares) come through, from a host and from a device payload. */
    @Test
    void theInnerMethodsDiagnosticsComeThrough() {
        Compressor ef = Compressors.create("jointsq", Map.of("rate", 0.1, "error_feedback", true), 4).copy(0);
        Compressor other = Compressors.create("jointsq", Map.of("rate", 0.1, "error_feedback", true), 4).copy(0);
        assertInstanceOf(ErrorFeedback.class, ef);
        float[] g = gradient(new SplittableRandom(2), 5000);
        Payload p = ef.encode(g, 0, g.length);
        Map<String, Double> shares = ef.diagnostics();
        assertEquals(4, shares.size(), shares.toString());
        assertTrue(shares.get("width_share/0") < 1, shares.toString());
        ((DeviceEncodable) other).sawDevicePayload(p);
        assertEquals(shares, other.diagnostics());
    }

    @Test
    void aResumedInstanceContinuesWithTheSameResidual() throws Exception {
        Compressor a = Compressors.create("qsgd", Map.of("bits", 2L, "error_feedback", true), 4).copy(0);
        SplittableRandom random = new SplittableRandom(8);
        float[] out = new float[200];
        a.decode(a.encode(gradient(random, 200), 0, 200), out, 0);
        var bytes = new java.io.ByteArrayOutputStream();
        a.saveState(new java.io.DataOutputStream(bytes));
        Compressor b = Compressors.create("qsgd", Map.of("bits", 2L, "error_feedback", true), 4).copy(0);
        b.restoreState(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
        float[] next = gradient(random, 200);
        assertArrayEquals(a.encode(next, 0, 200).bytes(), b.encode(next, 0, 200).bytes());
    }
}
