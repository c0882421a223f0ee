package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class DgcTest {
    private static Dgc dgc(double ratio, long stream) {
        return (Dgc) Compressors.create("dgc", Map.of("ratio", ratio, "sample_ratio", 0.1), 4).copy(stream);
    }

    @Test
    void whatIsNotSentStaysInTheAccumulator() {
        int n = 1000;
        double momentum = 0.9;
        Dgc c = dgc(0.01, 0);
        double[] corrected = new double[n];
        double[] sent = new double[n];
        double[] u = new double[n];
        for (int t = 0; t < 20; t++) {
            float[] g = TestGradients.gaussian(n, t);
            for (int i = 0; i < n; i++) {
                u[i] = momentum * u[i] + g[i];
                corrected[i] += u[i];
            }
            float[] out = TestGradients.roundTrip(c, g);
            for (int i = 0; i < n; i++) {
                sent[i] += out[i];
                if (out[i] != 0f) {
                    u[i] = 0;
                    assertEquals(0f, c.velocity()[i], "momentum factor masking, value " + i);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            assertEquals(corrected[i], sent[i] + c.accumulator()[i], 1e-3, "value " + i);
        }
    }

    @Test
    void sendsRoughlyTheTargetCountOfTheLargestAccumulatedValues() {
        int n = 20000;
        Dgc c = dgc(0.01, 0);
        float[] g = TestGradients.gaussian(n, 1);
        Payload p = c.encode(g, 0, n);
        float[] out = new float[n];
        c.decode(p, out, 0);
        int sent = 0;
        float smallestSent = Float.MAX_VALUE;
        for (float x : out) {
            if (x != 0f) {
                sent++;
                smallestSent = Math.min(smallestSent, Math.abs(x));
            }
        }
        assertTrue(sent > 100 && sent < 400, "sent " + sent + " of a target of 200");
        for (float x : c.accumulator()) {
            assertTrue(Math.abs(x) < smallestSent);
        }
        int countBits = 32 - Integer.numberOfLeadingZeros(n);
        assertEquals(countBits + (long) sent * (SparseTesting.ceilLog2(n) + 32), p.bits());
        assertEquals((p.bits() + 7) / 8, p.bytes().length);
    }

    @Test
    void savedStateContinuesIdentically() throws IOException {
        Dgc c = dgc(0.05, 3);
        for (int t = 0; t < 4; t++) {
            TestGradients.roundTrip(c, TestGradients.gaussian(300, t));
        }
        Dgc resumed = dgc(0.05, 3);
        SparseTesting.restore(resumed, SparseTesting.save(c));
        for (int t = 4; t < 8; t++) {
            float[] g = TestGradients.gaussian(300, t);
            assertArrayEquals(TestGradients.roundTrip(c, g), TestGradients.roundTrip(resumed, g), "step " + t);
        }
        assertArrayEquals(c.accumulator(), resumed.accumulator());
        assertThrows(IllegalStateException.class, () -> SparseTesting.restore(dgc(0.05, 4), SparseTesting.save(c)));
    }

    @Test
    void badParametersFailNamingThem() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Compressors.create("dgc", Map.of("dgc_momentum", 1.0), 1));
        assertEquals("dgc_momentum must be in [0, 1), found 1.0", e.getMessage());
        e = assertThrows(ConfigException.class, () -> Compressors.create("dgc", Map.of("sample_ratio", 0.0), 1));
        assertTrue(e.getMessage().startsWith("sample_ratio must be in (0, 1]"), e.getMessage());
    }
}
