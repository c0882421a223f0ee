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

    /** {@code ceil(a / b)} for positive values. */
    static int ceilDiv(long a, long b) {
        return (int) ((a + b - 1) / b);
    }
}
