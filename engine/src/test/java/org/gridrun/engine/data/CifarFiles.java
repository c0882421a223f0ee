package org.gridrun.engine.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes small CIFAR binary files for tests: image {@code i} of a file is filled from a formula of (i, c, y, x). */
public final class CifarFiles {
    static final int PLANE = 1024;

    private CifarFiles() {
    }

    /** The raw value of channel {@code c} at (y, x) of image {@code i} of file number {@code f}. */
    static int value(int f, int i, int c, int y, int x) {
        return (f * 31 + i * 7 + c * 50 + y * 3 + x * 5) & 0xFF;
    }

    /**
     * Writes {@code count} records: {@code labelBytes} label bytes (the last is {@code (first + i) % classes}, a
     * coarse one before it is {@code 99 − i % 20}) then R, G, B planes from {@link #value}.
     */
    static void write(Path file, int f, int count, int labelBytes, int first, int classes) throws IOException {
        int size = labelBytes + 3 * PLANE;
        byte[] bytes = new byte[count * size];
        for (int i = 0; i < count; i++) {
            int at = i * size;
            if (labelBytes == 2) {
                bytes[at] = (byte) (99 - i % 20);
            }
            bytes[at + labelBytes - 1] = (byte) ((first + i) % classes);
            for (int c = 0; c < 3; c++) {
                for (int p = 0; p < PLANE; p++) {
                    bytes[at + labelBytes + c * PLANE + p] = (byte) value(f, i, c, p / 32, p % 32);
                }
            }
        }
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    /** Writes a CIFAR-10 directory: five training files of {@code perFile} records and a test file of 3. */
    public static void writeCifar10(Path dir, int perFile) throws IOException {
        for (int f = 1; f <= 5; f++) {
            write(dir.resolve("data_batch_" + f + ".bin"), f, perFile, 1, f, 10);
        }
        write(dir.resolve("test_batch.bin"), 0, 3, 1, 0, 10);
    }

    /** Writes a CIFAR-100 directory: {@code train} training records and 4 test records. */
    static void writeCifar100(Path dir, int train) throws IOException {
        write(dir.resolve("train.bin"), 1, train, 2, 95, 100);
        write(dir.resolve("test.bin"), 0, 4, 2, 0, 100);
    }
}
