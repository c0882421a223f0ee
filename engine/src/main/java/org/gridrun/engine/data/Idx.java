package org.gridrun.engine.data;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.gridrun.engine.run.BadFileException;

/**
 * Reads IDX files of unsigned bytes (the MNIST and Fashion-MNIST format), gzip-compressed or plain.
 *
 * <p>An IDX file starts with a big-endian magic number {@code 0x0000TTDD}: two zero bytes, the value type
 * ({@code 0x08} for unsigned bytes) and the number of dimensions; then one big-endian 32-bit size per dimension, then
 * the values, exactly as many as the sizes say. Compression is recognised by the gzip signature, not by the file name.
 * A file that is not such a file is a {@link BadFileException} naming it and the byte where reading stopped.
 */
public final class Idx {
    private static final int UNSIGNED_BYTE = 0x08;
    private static final String ADVICE = "download the file again (gzip-compressed or plain IDX)";

    private Idx() {
    }

    /** Reads {@code file}, which must hold unsigned bytes in {@code dimensions} dimensions. */
    public static IdxData read(Path file, int dimensions) {
        if (!Files.isRegularFile(file)) {
            throw new UncheckedIOException(file + ": no such file", new NoSuchFileException(file.toString()));
        }
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString(), dimensions);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Reads an IDX stream called {@code name} in messages: unsigned bytes in {@code dimensions} dimensions. */
    public static IdxData read(InputStream raw, String name, int dimensions) {
        Path file = Path.of(name);
        long at = 0;
        try {
            DataInputStream in = new DataInputStream(maybeGunzip(raw));
            int magic = in.readInt();
            int expected = UNSIGNED_BYTE << 8 | dimensions;
            if (magic != expected) {
                throw new BadFileException(file, "byte 0", String.format("magic number 0x%08x, expected 0x%08x "
                        + "(an IDX file of unsigned bytes in %d dimensions)", magic, expected, dimensions), ADVICE);
            }
            int[] dims = new int[dimensions];
            long total = 1;
            for (int i = 0; i < dimensions; i++) {
                at = 4L + 4L * i;
                dims[i] = in.readInt();
                total *= Math.max(dims[i], 0);
                if (dims[i] < 0 || total > Integer.MAX_VALUE - 8) {
                    throw new BadFileException(file, "byte " + at, "dimension " + i + " is " + dims[i]
                            + ", which makes no array of unsigned bytes that fits in memory", ADVICE);
                }
            }
            at = 4L + 4L * dimensions;
            byte[] data = in.readNBytes((int) total);
            if (data.length != total) {
                throw new BadFileException(file, "byte " + (at + data.length), "the header declares "
                        + Arrays.toString(dims) + " = " + total + " bytes of data, but the file ends after "
                        + data.length, "the file is cut short; " + ADVICE);
            }
            long extra = in.skip(Long.MAX_VALUE);
            if (extra > 0) {
                throw new BadFileException(file, "byte " + (at + total), extra + " bytes follow the " + total
                        + " bytes of data the header declares " + Arrays.toString(dims), ADVICE);
            }
            return new IdxData(dims, data);
        } catch (EOFException e) {
            throw new BadFileException(file, "byte " + at, "the file ends before the header and the data it "
                    + "declares are complete", "the file is cut short; " + ADVICE, e);
        } catch (ZipException e) {
            throw new BadFileException(file, null, "its gzip compression is damaged (" + e.getMessage() + ")",
                    ADVICE, e);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Reads only the item count of {@code file} (the first dimension), without reading the values. */
    public static int count(Path file) {
        try (DataInputStream in = new DataInputStream(maybeGunzip(Files.newInputStream(file)))) {
            in.readInt();
            int count = in.readInt();
            if (count < 0) {
                throw new BadFileException(file, "byte 4", "the item count is " + count, ADVICE);
            }
            return count;
        } catch (EOFException | ZipException e) {
            throw new BadFileException(file, null, "too short or damaged for an IDX header", ADVICE, e);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static InputStream maybeGunzip(InputStream raw) throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b ? new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16) : in;
    }
}
