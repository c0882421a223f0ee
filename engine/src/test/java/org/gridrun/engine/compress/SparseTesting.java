package org.gridrun.engine.compress;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Random;

/** Helpers the sparsifier tests share: gradients, round trips and checkpoints. */
final class SparseTesting {
    private SparseTesting() {
    }

    static float[] gaussian(int n, long seed) {
        Random rng = new Random(seed);
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) rng.nextGaussian();
        }
        return g;
    }

    static float[] roundTrip(Compressor c, float[] g) {
        float[] out = new float[g.length];
        c.decode(c.encode(g, 0, g.length), out, 0);
        return out;
    }

    static byte[] save(Compressor c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        c.saveState(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    static void restore(Compressor c, byte[] state) throws IOException {
        c.restoreState(new DataInputStream(new ByteArrayInputStream(state)));
    }

    static int ceilLog2(int n) {
        int w = 0;
        while ((1L << w) < n) {
            w++;
        }
        return Math.max(1, w);
    }
}
