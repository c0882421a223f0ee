package org.gridrun.engine.backend.cuda;

/**
 * A graph of one step's device operations ({@link StepGraph}), built in order; nodes are named by their index in that
 * order, and each runs after the earlier nodes its {@code after} names (none: at the graph's start), so nodes that do
 * not depend on each other, as two workers' passes, may run at the same time. After {@link #instantiate()} it can be
 * launched again and again, and its kernels' arguments and its uploads' host data changed between launches.
 *
 * <p>A CUDA graph ({@link JCudaGpu#newGraph()}) or, in the tests, the emulator's list of the same operations.
 */
interface DeviceGraph extends AutoCloseable {
    /**
     * Appends a kernel launch, as {@link Gpu#launch}, run after nodes {@code after}; {@code dims} is the grid's x, y,
     * z then the block's.
     */
    void kernel(String kernel, int[] dims, KernelArgs args, int[] after);

    /**
     * Appends an upload of {@code bytes} bytes to {@code dst} from a host buffer of the graph's own ({@link #stage}),
     * run after nodes {@code after}.
     */
    void upload(long dst, long bytes, int[] after);

    /** Appends a device-to-device copy, as {@link Gpu#copy}, run after nodes {@code after}. */
    void copy(long src, long dst, long bytes, int[] after);

    /** Appends a fill of 32-bit words, as {@link Gpu#fill32}, run after nodes {@code after}. */
    void fill32(long dst, int value, long count, int[] after);

    /** Makes the graph launchable; nothing may be appended after. */
    void instantiate();

    /** Changes the arguments of kernel node {@code node}, whose kernel and dimensions stay. */
    void setArgs(int node, String kernel, int[] dims, KernelArgs args);

    /**
     * Writes the bytes that upload node {@code node} copies at the next launch: {@code count} floats of {@code src}
     * from {@code offset}, or ({@code src} null) the first {@code count} bytes of {@code bytes}.
     */
    void stage(int node, float[] src, int offset, byte[] bytes, int count);

    /** Queues upload node {@code node} on its own, outside the graph, from its staged bytes. */
    void uploadNow(int node);

    /** Queues the whole graph. */
    void launch();

    /** Frees the graph and its host buffers. */
    @Override
    void close();
}
