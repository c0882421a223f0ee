package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * An independent oracle for the bucketed level quantizers: bucket norms, neighbouring levels and the exact
 * per-value variance of unbiased two-level rounding, computed here from the definition, not from the code under test.
 *
 * @param levels the sorted levels in [-1, 1]
 * @param l2 whether buckets are scaled by their L2 norm (else the largest magnitude)
 * @param bucket values per bucket (buckets over the whole vector)
 */
record LevelOracle(double[] levels, boolean l2, int bucket) {
    /** The norm of the bucket holding value {@code i}. */
    double norm(float[] g, int i) {
        int from = i / bucket * bucket;
        int to = Math.min(g.length, from + bucket);
        double acc = 0;
        for (int k = from; k < to; k++) {
            acc = l2 ? acc + (double) g[k] * g[k] : Math.max(acc, Math.abs(g[k]));
        }
        return l2 ? Math.sqrt(acc) : acc;
    }

    /** The two levels around {@code r}: {@code {l_j, l_{j+1}}} with {@code l_j ≤ r ≤ l_{j+1}}. */
    double[] neighbours(double r) {
        for (int j = 0; j + 1 < levels.length; j++) {
            if (r <= levels[j + 1]) {
                return new double[] {levels[j], levels[j + 1]};
            }
        }
        throw new AssertionError(r + " above the top level");
    }

    /** The variance of value {@code i}'s decoding: {@code (l_{j+1} − r)(r − l_j)·norm²}. */
    double variance(float[] g, int i) {
        double norm = norm(g, i);
        if (norm == 0) {
            return 0;
        }
        double r = g[i] / norm;
        double[] around = neighbours(r);
        return (around[1] - r) * (r - around[0]) * norm * norm;
    }

    /** Every decoded value is one of the two levels around its normalised input, times the bucket norm. */
    void assertOnNeighbouringLevels(Compressor c, float[] g) {
        float[] out = TestGradients.roundTrip(c, g);
        for (int i = 0; i < g.length; i++) {
            double norm = norm(g, i);
            double[] around = neighbours(g[i] / norm);
            double tolerance = 1e-6 * norm;
            assertTrue(Math.abs(out[i] - around[0] * norm) <= tolerance
                            || Math.abs(out[i] - around[1] * norm) <= tolerance,
                    c + ", value " + i + ": " + g[i] + " decoded as " + out[i] + ", levels around it "
                            + Arrays.toString(around) + " × " + norm);
        }
    }

    /** The mean of {@code draws} decodings lies within 5 standard errors (from the exact variance) of the input. */
    void assertUnbiased(Compressor c, float[] g, int draws) {
        assertUnbiased(c, g, g, draws);
    }

    /** The same for a method that first transforms {@code input} (clips it) into {@code g}. */
    void assertUnbiased(Compressor c, float[] input, float[] g, int draws) {
        double[] mean = new double[g.length];
        float[] out = new float[g.length];
        for (int r = 0; r < draws; r++) {
            c.decode(c.encode(input, 0, input.length), out, 0);
            for (int i = 0; i < g.length; i++) {
                mean[i] += out[i] / (double) draws;
            }
        }
        for (int i = 0; i < g.length; i++) {
            double tolerance = 5 * Math.sqrt(variance(g, i) / draws) + 1e-6 * norm(g, i);
            assertEquals(g[i], mean[i], tolerance, c + ", value " + i);
        }
    }

    /** The payload holds exactly the reported bits in {@code ceil(bits / 8)} bytes. */
    static void assertExactLength(Compressor c, float[] g, long expectedBits) {
        Payload p = c.encode(g, 0, g.length);
        assertEquals(expectedBits, p.bits(), c + " of " + g.length);
        assertEquals((expectedBits + 7) / 8, p.bytes().length);
        assertEquals(g.length, p.elements());
    }

    /** Same seed and stream, same payload; another stream or the next draw differs; reset restarts. */
    static void assertDeterministic(Compressor prototype, float[] g) {
        Compressor a = prototype.copy(3);
        byte[] first = a.encode(g, 0, g.length).copy().bytes();
        assertArrayEquals(first, prototype.copy(3).encode(g, 0, g.length).bytes());
        assertFalse(Arrays.equals(first, prototype.copy(4).encode(g, 0, g.length).bytes()), "another stream");
        assertTrue(nextDiffers(a, g, first), "the next draws");
        a.reset();
        assertArrayEquals(first, a.encode(g, 0, g.length).bytes(), "reset restarts the stream");
    }

    /**
     * Whether one of the next eight payloads of {@code c} differs from {@code first}: with few quantized values two
     * steps' random codes coincide by chance (a third of the time for four 2-bit values), eight in a row do not.
     */
    private static boolean nextDiffers(Compressor c, float[] g, byte[] first) {
        boolean differs = false;
        for (int step = 0; step < 8; step++) {
            differs |= !Arrays.equals(first, c.encode(g, 0, g.length).bytes());
        }
        return differs;
    }

    /** A fresh copy restored from a saved one encodes what the saved one would have, two steps on. */
    static void assertRestoredContinues(Compressor prototype, float[] g) throws IOException {
        Compressor saved = prototype.copy(5);
        saved.encode(g, 0, g.length);
        ByteArrayOutputStream state = new ByteArrayOutputStream();
        saved.saveState(new DataOutputStream(state));
        byte[] next = saved.encode(g, 0, g.length).copy().bytes();
        byte[] after = saved.encode(g, 0, g.length).copy().bytes();
        Compressor restored = prototype.copy(5);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
        assertArrayEquals(next, restored.encode(g, 0, g.length).copy().bytes());
        assertArrayEquals(after, restored.encode(g, 0, g.length).bytes());
    }
}
