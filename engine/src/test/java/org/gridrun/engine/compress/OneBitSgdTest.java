package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class OneBitSgdTest {
    private static Compressor onebit(int bucket) {
        return Compressors.create("onebit", Map.of("bucket_size", (long) bucket), 1);
    }

    @Test
    void payloadIsTwoFloatsPerBucketAndOneBitPerValue() {
        for (int n : new int[] {0, 1, 7, 64, 1000}) {
            for (int bucket : new int[] {1, 8, 8192}) {
                Payload p = onebit(bucket).encode(TestGradients.gaussian(n, n), 0, n);
                assertEquals(64L * ((n + bucket - 1) / bucket) + n, p.bits(), n + "/" + bucket);
                assertEquals((p.bits() + 7) / 8, p.bytes().length);
            }
        }
    }

    @Test
    void eachSideDecodesToItsBucketMean() {
        float[] g = {1f, -2f, 3f, -4f, 5f, 6f};
        Compressor c = onebit(4);
        float[] out = new float[6];
        c.decode(c.encode(g, 0, 6), out, 0);
        assertArrayEquals(new float[] {2f, -3f, 2f, -3f, 5.5f, 5.5f}, out);
        assertEquals(Aggregation.ALL_GATHER, c.aggregation());
    }

    @Test
    void sentPlusResidualIsTheGradientSum() {
        OneBitSgd c = (OneBitSgd) onebit(16).copy(3);
        int n = 70;
        double[] sumG = new double[n];
        double[] sumSent = new double[n];
        float[] out = new float[n];
        for (int step = 0; step < 15; step++) {
            float[] g = TestGradients.gaussian(n, 100 + step);
            c.decode(c.encode(g, 0, n), out, 0);
            for (int i = 0; i < n; i++) {
                sumG[i] += g[i];
                sumSent[i] += out[i];
            }
        }
        for (int i = 0; i < n; i++) {
            assertEquals(sumG[i], sumSent[i] + c.residual()[i], 1e-4, "value " + i);
        }
    }

    @Test
    void aRestoredCopyEncodesWhatTheSavedOneWould() throws IOException {
        float[] g = TestGradients.gaussian(90, 5);
        Compressor a = onebit(32);
        a.encode(g, 0, 90);
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        a.saveState(new DataOutputStream(state));
        assertEquals(4 + 4 * 90, state.size());
        byte[] next = a.encode(g, 0, 90).copy().bytes();
        Compressor b = onebit(32);
        b.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
        assertArrayEquals(next, b.encode(g, 0, 90).bytes());
        a.reset();
        assertArrayEquals(onebit(32).encode(g, 0, 90).bytes(), a.encode(g, 0, 90).bytes(), "reset clears");
    }

    @Test
    void badParametersFail() {
        assertEquals("bucket_size must be positive, found 0", assertThrows(ConfigException.class,
                () -> onebit(0)).getMessage());
        assertEquals(Map.of("bucket_size", 8192L), Compressors.create("onebit", Map.of(), 1).config());
    }
}
