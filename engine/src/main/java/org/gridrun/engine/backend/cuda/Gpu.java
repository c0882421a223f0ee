package org.gridrun.engine.backend.cuda;

/**
 * The driver operations the CUDA backend needs, on one device and one stream: memory, copies and kernel launches.
 *
 * <p>Memory is named by device addresses held as {@code long}s, so a tensor's element {@code i} is at
 * {@code base + 4·(offset + i)} and kernels take addresses as plain 64-bit arguments. Every operation is queued on
 * the one stream in call order; {@code download*} and {@link #synchronize()} wait for all work before them, and an
 * upload's host array may be reused as soon as the call returns. Kernels are named by their {@code extern "C"} name
 * in the sources under {@code engine/src/main/cuda/}.
 *
 * <p>Two implementations: {@link JCudaGpu} drives a real GPU through JCuda's driver API; the tests' emulator runs the
 * same kernel sources compiled for the host, so that the backend and its kernels are checked on machines without a
 * GPU. Not thread-safe.
 */
interface Gpu extends AutoCloseable {
    /** The device in words, e.g. {@code NVIDIA H100 80GB HBM3, 79.1 GiB, compute 9.0, driver 13.0}. */
    String describe();

    /**
     * A new device allocation of {@code bytes} bytes, aligned to 256 bytes; its contents are undefined.
     *
     * @throws GpuOutOfMemoryException when the device has no room for it
     */
    long allocate(long bytes);

    /** Releases an allocation made by {@link #allocate}; waits for queued work first. */
    void free(long address);

    /** Copies {@code count} floats from {@code src[srcOffset…]} to device address {@code dst}. */
    void upload(float[] src, int srcOffset, long dst, int count);

    /** Copies {@code count} floats from device address {@code src} into {@code dst[dstOffset…]}. */
    void download(long src, float[] dst, int dstOffset, int count);

    /** Copies {@code count} bytes from {@code src[0…]} to device address {@code dst}. */
    void uploadBytes(byte[] src, long dst, int count);

    /** Copies {@code count} bytes from device address {@code src} into {@code dst[0…]}. */
    void downloadBytes(long src, byte[] dst, int count);

    /** Copies {@code bytes} bytes between device addresses; the ranges must not overlap. */
    void copy(long src, long dst, long bytes);

    /** Sets {@code count} 32-bit words from {@code dst} on to {@code value} (e.g. the bits of a float). */
    void fill32(long dst, int value, long count);

    /**
     * Queues kernel {@code kernel} on a grid of {@code gridX × gridY × gridZ} blocks of {@code blockX × blockY ×
     * blockZ} threads, with {@code args} in the order of the kernel's parameters. Kernels use static shared memory
     * only.
     */
    void launch(String kernel, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ, KernelArgs args);

    /**
     * A new, empty graph of operations on this device ({@link StepGraph} records a step into it).
     *
     * @throws UnsupportedOperationException where this device cannot replay graphs
     */
    DeviceGraph newGraph();

    /** Waits for every queued operation, and fails if one of them failed. */
    void synchronize();

    /** Frees every allocation still held and releases the device. */
    @Override
    void close();
}
