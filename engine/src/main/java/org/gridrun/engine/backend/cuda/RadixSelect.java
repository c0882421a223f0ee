package org.gridrun.engine.backend.cuda;

/**
 * The radix select of the k-th largest magnitude on the GPU ({@code sparse.cu}): its key (the bits of {@code |v|},
 * every NaN one above infinity), found four bits a pass from the top, each pass a fixed-order count of the digits per
 * block and a one-block pick of the digit, as {@code TopKSelector} walks its histograms. The selection stays on the
 * device: {threshold key, its mask, keys above it}.
 */
final class RadixSelect {
    /** Threads per block of the counts ({@code GR_SPARSE_THREADS}). */
    private static final int THREADS = 256;
    /** Bins of one radix digit ({@code GR_DIGIT_BINS}): four bits a pass. */
    private static final int BINS = 16;
    /**
     * The most blocks that count digits: about the blocks of 256 threads an H100 holds at once (132 multiprocessors
     * of 8), so that a pass reads the values in one wave; the pick's 256 threads sum their counts.
     */
    private static final int COUNT_BLOCKS = 1024;

    private final Gpu gpu;
    private final int countBlocks;
    private final Upload state;
    private final Upload digitCounts;

    RadixSelect(Gpu gpu) {
        this(gpu, COUNT_BLOCKS);
    }

    /** A select whose digit counts run on at most {@code countBlocks} blocks (tests: each thread then counts many). */
    RadixSelect(Gpu gpu, int countBlocks) {
        this.gpu = gpu;
        this.countBlocks = countBlocks;
        state = new Upload(gpu);
        digitCounts = new Upload(gpu);
    }

    /** The device address of the selection of the k-th largest key of the {@code n} values at {@code values}. */
    long select(long values, int n, int k) {
        long selection = state.reserve(16);
        gpu.fill32(selection, 0, 4);
        int blocks = Math.min(countBlocks, Launches.blocks(n, THREADS));
        long counts = digitCounts.reserve(4L * BINS * blocks);
        for (int shift = 32 - 4; shift >= 0; shift -= 4) {
            gpu.launch("gr_topk_digit_counts", blocks, 1, 1, THREADS, 1, 1, KernelArgs.of().address(values).i64(n)
                    .address(selection).i32(shift).address(counts));
            gpu.launch("gr_topk_pick_digit", 1, 1, 1, THREADS, 1, 1, KernelArgs.of().address(counts).i32(blocks)
                    .i32(shift).i32(k).address(selection));
        }
        return selection;
    }

    void free() {
        state.free();
        digitCounts.free();
    }
}
