package org.gridrun.engine.backend.cuda;

/**
 * Long sums on the GPU in the host's chunked chain order ({@code chains.cu}, {@code compress.ChainSums}): one launch
 * of chunk sums, then launches of sums of those partials until one is left, copied to where the caller wants it.
 * Its two scratch buffers grow to the largest vector summed; {@link #close()} frees them.
 */
final class CudaChainSums implements AutoCloseable {
    /** What a value adds, as {@code chains.cu} numbers it. */
    enum Term { PLAIN, ABS, SQUARE }

    private static final int CHAINS = 128;
    private static final long CHUNK = 8192;

    private final Gpu gpu;
    private final Upload partials;
    private final Upload next;

    CudaChainSums(Gpu gpu) {
        this.gpu = gpu;
        this.partials = new Upload(gpu);
        this.next = new Upload(gpu);
    }

    /** Queues the sum of {@code term} of the {@code n} floats at {@code g} into the double at {@code out}. */
    void sum(long g, long n, Term term, long out) {
        long count = chunks(n);
        long a = partials.reserve(8 * count);
        long b = next.reserve(8 * chunks(count));
        gpu.launch("gr_chain_partials", blocks(count), 1, 1, CHAINS, 1, 1, KernelArgs.of().address(g).i64(n)
                .i32(term.ordinal()).address(a));
        while (count > 1) {
            gpu.launch("gr_chain_partials_doubles", blocks(chunks(count)), 1, 1, CHAINS, 1, 1, KernelArgs.of()
                    .address(a).i64(count).address(b));
            count = chunks(count);
            long swap = a;
            a = b;
            b = swap;
        }
        gpu.copy(a, out, 8);
    }

    /** The chunks of a level of {@code n} items: one at least. */
    private static long chunks(long n) {
        return n > CHUNK ? (n + CHUNK - 1) / CHUNK : 1;
    }

    private static int blocks(long chunks) {
        return (int) Math.min(chunks, Launches.MAX_BLOCKS);
    }

    @Override
    public void close() {
        partials.free();
        next.free();
    }
}
