package org.gridrun.engine.compress;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** Helpers the sparsifier tests share: gradients, round trips and checkpoints. */
final class SparseTesting {
    private SparseTesting() {
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
