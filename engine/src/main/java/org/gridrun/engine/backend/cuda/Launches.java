package org.gridrun.engine.backend.cuda;

/** Grid arithmetic shared by the kernel launchers. */
final class Launches {
    /** Threads per block of the one-dimensional element-wise kernels. */
    static final int THREADS = 256;

    /** The most blocks a one-dimensional grid gets; kernels loop (grid-stride) over what is left. */
    static final int MAX_BLOCKS = 65_535;

    private Launches() {
    }

    /** Blocks of {@code threads} threads that cover {@code n} items, at least 1 and at most {@link #MAX_BLOCKS}. */
    static int blocks(long n, int threads) {
        return (int) Math.max(1, Math.min(MAX_BLOCKS, (n + threads - 1) / threads));
    }

    /**
     * Launches a one-dimensional (grid-stride) kernel over {@code items} items, {@link #THREADS} threads a block and
     * as many blocks as {@link #blocks} gives.
     */
    static void linear(Gpu gpu, String kernel, long items, KernelArgs args) {
        gpu.launch(kernel, blocks(items, THREADS), 1, 1, THREADS, 1, 1, args);
    }

    /**
     * Adds the {@code n} decoded floats at {@code decoded} to the mean of {@code workers} gradients building at
     * {@code mean}, as worker {@code worker} ({@code gr_add_to_mean}: {@code SimulatedCollective.addToMean}).
     */
    static void addToMean(Gpu gpu, long decoded, long n, int worker, int workers, long mean) {
        linear(gpu, "gr_add_to_mean", n, KernelArgs.of().address(decoded).i64(n).i32(worker).i32(workers)
                .f32(1f / workers).address(mean));
    }

    /** {@code ceil(a / b)} for positive values. */
    static int ceilDiv(long a, long b) {
        return (int) ((a + b - 1) / b);
    }
}
