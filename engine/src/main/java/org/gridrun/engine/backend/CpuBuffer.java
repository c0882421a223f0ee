package org.gridrun.engine.backend;

/** A CPU backend buffer: a float array on the Java heap. */
final class CpuBuffer implements DeviceBuffer {
    private float[] data;
    private final int length;

    CpuBuffer(int length) {
        this.data = new float[length];
        this.length = length;
    }

    /** The array, or a failure when the buffer was closed. */
    float[] data() {
        float[] d = data;
        if (d == null) {
            throw new IllegalStateException("tensor used after its buffer was closed");
        }
        return d;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public boolean isClosed() {
        return data == null;
    }

    @Override
    public void close() {
        data = null;
    }
}
