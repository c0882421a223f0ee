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
import java.util.zip.GZIPInputStream;

/**
 * Reads IDX files of unsigned bytes (the MNIST and Fashion-MNIST format), gzip-compressed or plain.
 *
 * <p>An IDX file starts with a big-endian magic number {@code 0x0000TTDD}: two zero bytes, the value type
 * ({@code 0x08} for unsigned bytes) and the number of dimensions; then one big-endian 32-bit size per dimension, then
 * the values. Compression is recognised by the gzip signature, not by the file name. Every failure names the file.
 */
public final class Idx {
    private static final int UNSIGNED_BYTE = 0x08;

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
        try {
            DataInputStream in = new DataInputStream(maybeGunzip(raw));
            int magic = in.readInt();
            int expected = UNSIGNED_BYTE << 8 | dimensions;
            if (magic != expected) {
                throw invalid(String.format("%s: bad magic number 0x%08x, expected 0x%08x (an IDX file of "
                        + "unsigned bytes with %d dimensions)", name, magic, expected, dimensions));
            }
            int[] dims = new int[dimensions];
            long total = 1;
            for (int i = 0; i < dimensions; i++) {
                dims[i] = in.readInt();
                total *= dims[i];
                if (dims[i] < 0 || total > Integer.MAX_VALUE - 8) {
                    throw invalid(name + ": bad dimension " + dims[i]);
                }
            }
            byte[] data = new byte[(int) total];
            int got = in.readNBytes(data, 0, data.length);
            if (got != data.length) {
                throw invalid(name + ": truncated: expected " + data.length + " bytes of data, found " + got);
            }
            return new IdxData(dims, data);
        } catch (EOFException e) {
            throw new UncheckedIOException(name + ": truncated header", e);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Reads only the item count of {@code file} (the first dimension), without reading the values. */
    public static int count(Path file) {
        try (DataInputStream in = new DataInputStream(maybeGunzip(Files.newInputStream(file)))) {
            in.readInt();
            return in.readInt();
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static UncheckedIOException invalid(String message) {
        return new UncheckedIOException(message, new IOException(message));
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
