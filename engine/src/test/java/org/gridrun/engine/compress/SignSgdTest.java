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

class SignSgdTest {
    private static byte[] state(Compressor c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        c.saveState(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    @Test
    void payloadIsOneBitPerValuePlusTheScale() {
        for (int n : new int[] {0, 1, 31, 32, 33, 1000}) {
            float[] g = TestGradients.gaussian(n, n);
            for (String name : new String[] {"signsgd", "efsignsgd", "signum"}) {
                Payload p = Compressors.create(name, Map.of(), 1).encode(g, 0, n);
                assertEquals(32L + n, p.bits(), name + " " + n);
                assertEquals((p.bits() + 7) / 8, p.bytes().length);
            }
            assertEquals(n, Compressors.create("signsgd", Map.of("scaled", false), 1).encode(g, 0, n).bits());
        }
    }

    @Test
    void signsgdDecodesToPlusOrMinusTheMeanMagnitude() {
        float[] g = {3f, -1f, 0f, -4f};
        assertArrayEquals(new float[] {2f, -2f, 2f, -2f},
                TestGradients.roundTrip(Compressors.create("signsgd", Map.of(), 1), g));
        assertArrayEquals(new float[] {1f, -1f, 1f, -1f},
                TestGradients.roundTrip(Compressors.create("signsgd", Map.of("scaled", false), 1), g));
        Payload p = Compressors.create("signsgd", Map.of(), 1).encode(g, 0, 4);
        assertEquals(2f, LittleEndian.getFloat(p.bytes(), 0));
        assertEquals(0b1010, p.bytes()[4], "bit 1 marks a negative value");
        assertEquals(Aggregation.ALL_GATHER, Compressors.create("signsgd", Map.of(), 1).aggregation());
    }

    @Test
    void averagedUnscaledSignsAreTheMajorityVoteMargin() {
        float[][] workers = {{1, -1, 2}, {3, -2, -1}, {-1, -5, -2}};
        float[] mean = new float[3];
        for (float[] g : workers) {
            float[] out = TestGradients.roundTrip(Compressors.create("signsgd", Map.of("scaled", false), 1), g);
            for (int i = 0; i < 3; i++) {
                mean[i] += out[i] / 3;
            }
        }
        assertArrayEquals(new float[] {1f / 3, -1f, -1f / 3}, mean, 1e-6f);
    }

    @Test
    void efsignsgdSentPlusResidualIsTheGradientSum() {
        SignSgd c = (SignSgd) Compressors.create("efsignsgd", Map.of(), 1).copy(2);
        int n = 50;
        double[] sumG = new double[n];
        double[] sumSent = new double[n];
        float[] out = new float[n];
        for (int step = 0; step < 20; step++) {
            float[] g = TestGradients.gaussian(n, step);
            c.decode(c.encode(g, 0, n), out, 0);
            for (int i = 0; i < n; i++) {
                sumG[i] += g[i];
                sumSent[i] += out[i];
            }
        }
        for (int i = 0; i < n; i++) {
            assertEquals(sumG[i], sumSent[i] + c.memory()[i], 1e-4, "value " + i);
        }
    }

    @Test
    void efsignsgdScaleIsTheMeanOfGradientPlusResidual() {
        Compressor c = Compressors.create("efsignsgd", Map.of(), 1);
        assertArrayEquals(new float[] {2f, -2f}, TestGradients.roundTrip(c, new float[] {3f, -1f}));
        // residual (1, 1); next v = (1, 0): scale 0.5
        assertArrayEquals(new float[] {0.5f, 0.5f}, TestGradients.roundTrip(c, new float[] {0f, -1f}));
    }

    @Test
    void signumSignsTheMomentumAndRestoresIt() throws IOException {
        Map<String, Object> p = Map.of("signum_momentum", 0.5, "scaled", false);
        Compressor c = Compressors.create("signum", p, 1);
        assertArrayEquals(new float[] {1f}, TestGradients.roundTrip(c, new float[] {4f}));   // m = 2
        assertArrayEquals(new float[] {1f}, TestGradients.roundTrip(c, new float[] {-1f}));  // m = 1 - 0.5 = 0.5
        byte[] saved = state(c);
        assertEquals(4 + 4, saved.length);
        assertArrayEquals(new float[] {-1f}, TestGradients.roundTrip(c, new float[] {-3f})); // m = 0.25 - 1.5 = -1.25
        Compressor restored = Compressors.create("signum", p, 1);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(saved)));
        assertArrayEquals(new float[] {-1f}, TestGradients.roundTrip(restored, new float[] {-3f}));
        Compressor fresh = Compressors.create("signum", p, 1);
        assertArrayEquals(new float[] {-1f}, TestGradients.roundTrip(fresh, new float[] {-3f}));
        assertArrayEquals(new float[] {1f}, TestGradients.roundTrip(fresh.copy(0), new float[] {4f}));
        c.reset();
        assertEquals(4, state(c).length, "reset clears the momentum");
    }

    @Test
    void efsignsgdRestoresItsResidual() throws IOException {
        float[] g = TestGradients.gaussian(40, 3);
        Compressor a = Compressors.create("efsignsgd", Map.of(), 1);
        a.encode(g, 0, 40);
        byte[] saved = state(a);
        byte[] next = a.encode(g, 0, 40).copy().bytes();
        Compressor b = Compressors.create("efsignsgd", Map.of(), 1);
        b.restoreState(new DataInputStream(new ByteArrayInputStream(saved)));
        assertArrayEquals(next, b.encode(g, 0, 40).bytes());
    }

    @Test
    void badParametersFail() {
        assertEquals("signum_momentum must be in [0, 1), found 1.0", assertThrows(ConfigException.class,
                () -> Compressors.create("signum", Map.of("signum_momentum", 1.0), 1)).getMessage());
        assertThrows(ConfigException.class, () -> Compressors.create("efsignsgd", Map.of("scaled", false), 1));
        assertEquals(Map.of("scaled", true, "signum_momentum", 0.9),
                Compressors.create("signum", Map.of(), 1).config());
    }
}
