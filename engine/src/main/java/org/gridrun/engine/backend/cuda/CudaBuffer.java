package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.DeviceBuffer;
import org.gridrun.engine.backend.Tensor;

/** A CUDA backend buffer: one device allocation of float32 values. */
final class CudaBuffer implements DeviceBuffer {
    private final Gpu gpu;
    private final long length;
    private long address;

    CudaBuffer(Gpu gpu, long address, long length) {
        this.gpu = gpu;
        this.address = address;
        this.length = length;
    }

    /** The device address of element {@code i}, or a failure when the buffer was closed. */
    long address(long i) {
        long a = address;
        if (a == 0) {
            throw new IllegalStateException("tensor used after its buffer was closed");
        }
        return a + 4 * i;
    }

    /** The device address of {@code t}'s first element; {@code t} must belong to a CUDA backend. */
    static long of(Tensor t) {
        if (!(t.buffer() instanceof CudaBuffer buffer)) {
            throw new IllegalArgumentException("tensor does not belong to the cuda backend: " + t);
        }
        return buffer.address(t.offset());
    }

    /** {@link #of(Tensor)}, or 0 (the null pointer) for a null tensor. */
    static long ofNullable(Tensor t) {
        return t == null ? 0 : of(t);
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public boolean isClosed() {
        return address == 0;
    }

    @Override
    public void close() {
        if (address != 0) {
            gpu.free(address);
            address = 0;
        }
    }
}
