package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class ThresholdTest {
    private static Compressor threshold(double t) {
        return Compressors.create("threshold", Map.of("threshold", t), 1);
    }

    @Test
    void sendsEveryValueAtOrAboveTheThresholdExactly() {
        float[] g = TestGradients.gaussian(2000, 4);
        g[7] = 1.5f;
        g[8] = -1.5f;
        float[] out = TestGradients.roundTrip(threshold(1.5), g);
        for (int i = 0; i < g.length; i++) {
            float want = Math.abs(g[i]) >= 1.5f ? g[i] : 0f;
            assertEquals(want, out[i], "value " + i);
        }
        assertEquals(1.5f, out[7]);
        assertEquals(-1.5f, out[8]);
    }

    @Test
    void payloadHoldsExactlyTheReportedBits() {
        for (int n : new int[] {1, 2, 100, 1024, 1025}) {
            float[] g = TestGradients.gaussian(n, n);
            int k = 0;
            for (float v : g) {
                k += Math.abs(v) >= 1.0 ? 1 : 0;
            }
            Payload p = threshold(1.0).encode(g, 0, n);
            int countBits = 32 - Integer.numberOfLeadingZeros(n);
            assertEquals(countBits + (long) k * (SparseTesting.ceilLog2(n) + 32), p.bits(), "n " + n);
            assertEquals((p.bits() + 7) / 8, p.bytes().length);
        }
    }

    @Test
    void nothingAboveTheThresholdDecodesToZeros() {
        float[] out = TestGradients.roundTrip(threshold(100), TestGradients.gaussian(64, 2));
        for (float v : out) {
            assertEquals(0f, v);
        }
    }

    @Test
    void negativeThresholdFailsNamingIt() {
        ConfigException e = assertThrows(ConfigException.class, () -> threshold(-1));
        assertTrue(e.getMessage().startsWith("threshold must not be negative"), e.getMessage());
    }
}
