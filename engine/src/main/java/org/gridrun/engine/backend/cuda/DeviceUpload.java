package org.gridrun.engine.backend.cuda;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A device buffer of a codec slot that holds the last bytes uploaded to it, grown as needed, and the object they were
 * made from: a format's arrays are never changed in place, so the same object again needs neither bytes nor a
 * comparison. A payload buffer only {@link #reserve}s.
 */
final class DeviceUpload {
    private final Gpu gpu;
    private Object source;
    private byte[] content = new byte[0];
    private long address;
    private long capacity;

    DeviceUpload(Gpu gpu) {
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
     * The buffer holding the bytes {@code bytes} makes of {@code from}: made only for another object than the last,
     * uploaded only when they differ from the last bytes.
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
}
