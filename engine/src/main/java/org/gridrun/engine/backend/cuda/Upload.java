package org.gridrun.engine.backend.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A device buffer that holds the last bytes uploaded to it, grown as needed, and the object they were made from:
 * a format's arrays are never changed in place, so the same object again needs neither bytes nor a comparison.
 */
final class Upload {
    private final Gpu gpu;
    private Object source;
    private byte[] content = new byte[0];
    private long address;
    private long capacity;

    Upload(Gpu gpu) {
        this.gpu = gpu;
    }

    /** The buffer, at least {@code bytes} long; what it held is lost when it grows. */
    long reserve(long bytes) {
        if (bytes > capacity) {
            free();
            address = gpu.allocate(bytes);
            capacity = bytes;
        }
        return address;
    }

    /**
     * The buffer holding the bytes {@code bytes} makes of {@code from}: made only for another object than the
     * last, uploaded only when they differ from the last bytes.
     */
    long holding(Object from, Supplier<byte[]> bytes) {
        if (from != source) {
            byte[] b = bytes.get();
            if (!Arrays.equals(content, b)) {
                content = new byte[0];
                reserve(Math.max(4, b.length));
                gpu.uploadBytes(b, address, b.length);
                content = b;
            }
            source = from;
        }
        return address;
    }

    long address() {
        return address;
    }

    void free() {
        if (address != 0) {
            gpu.free(address);
            address = 0;
            capacity = 0;
            content = new byte[0];
            source = null;
        }
    }

    /** {@code values} as little-endian bytes, as the device holds doubles. */
    static byte[] doubles(double[] values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : values) {
            b.putDouble(v);
        }
        return b.array();
    }

    /** {@code values} as little-endian bytes, as the device holds long longs. */
    static byte[] longs(long[] values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            b.putLong(v);
        }
        return b.array();
    }

    /** The long long at device address {@code address} (a size a kernel left; a small download that waits). */
    static long downloadLong(Gpu gpu, long address) {
        byte[] b = new byte[8];
        gpu.downloadBytes(address, b, 8);
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** {@code values} as little-endian bytes, as the device holds ints. */
    static byte[] ints(int[] values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }
}
