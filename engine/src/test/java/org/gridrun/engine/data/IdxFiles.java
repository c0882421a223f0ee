package org.gridrun.engine.data;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/** Writes small IDX files for tests, and whole synthetic Fashion-MNIST-shaped directories. */
public final class IdxFiles {
    private IdxFiles() {
    }

    /** Writes an IDX file of unsigned bytes with the given magic number (normally {@code 0x0800 | dims}). */
    public static void write(Path file, int magic, int[] dims, byte[] data, boolean gzip) throws IOException {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(raw)) {
            out.writeInt(magic);
            for (int d : dims) {
                out.writeInt(d);
            }
            out.write(data);
        }
        try (OutputStream out = gzip ? new GZIPOutputStream(Files.newOutputStream(file))
                : Files.newOutputStream(file)) {
            out.write(raw.toByteArray());
        }
    }

    /**
     * Writes the four Fashion-MNIST files of a learnable synthetic set: class {@code c} lights a horizontal band of
     * rows {@code 2c .. 2c + 4} of each 28×28 image, plus noise.
     */
    public static void writeSyntheticFashionMnist(Path dir, int train, int test, long seed) throws IOException {
        Random rng = new Random(seed);
        writeSplit(dir, "train", train, rng);
        writeSplit(dir, "t10k", test, rng);
    }

    private static void writeSplit(Path dir, String prefix, int n, Random rng) throws IOException {
        byte[] images = new byte[n * 784];
        byte[] labels = new byte[n];
        for (int i = 0; i < n; i++) {
            int c = rng.nextInt(10);
            labels[i] = (byte) c;
            for (int p = 0; p < 784; p++) {
                int row = p / 28;
                int value = rng.nextInt(60) + (row >= 2 * c && row < 2 * c + 5 ? 180 : 0);
                images[i * 784 + p] = (byte) Math.min(255, value);
            }
        }
        write(dir.resolve(prefix + "-images-idx3-ubyte.gz"), 0x0803, new int[] {n, 28, 28}, images, true);
        write(dir.resolve(prefix + "-labels-idx1-ubyte.gz"), 0x0801, new int[] {n}, labels, true);
    }
}
