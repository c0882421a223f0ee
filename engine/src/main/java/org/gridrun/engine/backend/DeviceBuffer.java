package org.gridrun.engine.backend;

/**
 * A block of float memory owned by one backend: host memory for the CPU backend, device memory for an accelerator.
 *
 * <p>Backends create buffers in {@link Backend#allocate(int, int)} and hand them out wrapped in a {@link Tensor};
 * nothing else reads them directly. Closing releases the memory; a closed buffer fails every later operation.
 */
public interface DeviceBuffer extends AutoCloseable {
    /** The number of floats this buffer holds. */
    long length();

    /** Whether {@link #close()} was called. */
    boolean isClosed();

    /** Releases the memory; closing twice does nothing. */
    @Override
    void close();
}
