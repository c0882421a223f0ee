package org.gridrun.engine.data;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridrun.engine.run.BadFileException;

/**
 * Reads the CIFAR binary format: fixed-size records of label bytes then a 32×32 colour image as three planes.
 *
 * <p>A record is {@code labelBytes} label bytes (CIFAR-10: the class; CIFAR-100: the coarse then the fine class,
 * of which the last is used) followed by 3072 pixel bytes: the red plane, the green plane, the blue plane, each 1024
 * bytes row-major. The reader transposes each image to channels-last (pixel (y, x) then red, green, blue), the layout
 * {@link Dataset} documents. Every failure names the file, and a truncated or malformed one the record and its byte
 * offset.
 */
final class CifarBinary {
    /** Images are 32×32×3. */
    static final ImageShape SHAPE = new ImageShape(32, 32, 3);

    private static final int PLANE = 32 * 32;
    private static final String ADVICE = "download the CIFAR binary version again";

    private CifarBinary() {
    }

    /**
     * The images and labels of a concatenation of CIFAR binary files.
     *
     * @param pixels channels-last images, {@code labels.length × 3072} bytes
     * @param labels the class of each image
     */
    record Images(byte[] pixels, int[] labels) {
    }

    /** Reads {@code files} in order, {@code labelBytes} label bytes per record, labels in [0, classes). */
    static Images read(List<Path> files, int labelBytes, int classes) {
        int recordSize = labelBytes + SHAPE.features();
        long total = 0;
        for (Path file : files) {
            total += records(file, recordSize);
        }
        if (total * SHAPE.features() > Integer.MAX_VALUE - 8) {
            throw new BadFileException(files.get(files.size() - 1), null, "the files hold " + total + " images, more "
                    + "than fit in one array", "give fewer or smaller files");
        }
        byte[] pixels = new byte[(int) total * SHAPE.features()];
        int[] labels = new int[(int) total];
        int image = 0;
        for (Path file : files) {
            image = readFile(file, labelBytes, classes, pixels, labels, image);
        }
        return new Images(pixels, labels);
    }

    /** The number of records in {@code file}, reading only its size; fails on an empty or truncated file. */
    static int records(Path file, int recordSize) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
        long whole = size / recordSize;
        if (size == 0) {
            throw new BadFileException(file, null, "empty, expected records of " + recordSize + " bytes", ADVICE);
        }
        if (size % recordSize != 0) {
            throw new BadFileException(file, "byte " + whole * recordSize, "truncated: record " + whole + " has "
                    + size % recordSize + " of its " + recordSize + " bytes", "the file is cut short or has bytes "
                    + "added; " + ADVICE);
        }
        return (int) whole;
    }

    private static int readFile(Path file, int labelBytes, int classes, byte[] pixels, int[] labels, int image) {
        int recordSize = labelBytes + SHAPE.features();
        int count = records(file, recordSize);
        byte[] record = new byte[recordSize];
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            for (int r = 0; r < count; r++, image++) {
                long offset = (long) r * recordSize;
                int got = in.readNBytes(record, 0, recordSize);
                if (got != recordSize) {
                    throw new BadFileException(file, "byte " + offset, "truncated: record " + r + " has " + got
                            + " of its " + recordSize + " bytes", "the file changed while it was read; " + ADVICE);
                }
                int label = record[labelBytes - 1] & 0xFF;
                if (label >= classes) {
                    throw new BadFileException(file, "byte " + (offset + labelBytes - 1), "record " + r + ": label "
                            + label + " outside [0, " + classes + ")", ADVICE);
                }
                labels[image] = label;
                toChannelsLast(record, labelBytes, pixels, image * SHAPE.features());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
        return image;
    }

    /** Copies three planes starting at {@code from} into channels-last pixels starting at {@code to}. */
    static void toChannelsLast(byte[] planes, int from, byte[] pixels, int to) {
        for (int p = 0; p < PLANE; p++) {
            pixels[to + 3 * p] = planes[from + p];
            pixels[to + 3 * p + 1] = planes[from + PLANE + p];
            pixels[to + 3 * p + 2] = planes[from + 2 * PLANE + p];
        }
    }
}
