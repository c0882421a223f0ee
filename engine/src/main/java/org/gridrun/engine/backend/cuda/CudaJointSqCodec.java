package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.JointSqFormat;

/**
 * JointSQ's payloads on the GPU ({@code jointsq.cu}), byte for byte what the CPU encoder writes with
 * {@code allocation: search} for the same draws ({@code JointSq.planDeviceEncode}), and decoded from there into the
 * workers' mean as the host collective does, to the bit.
 *
 * <p>Each tensor is cut into chunks of 8192 values, the width map's chunks: the statistics, widths, rounding and
 * decoding run a block per chunk (each chunk's place among its tensor's taken from the counts of the chunks before
 * it), the allocation search a block per tensor, the width maps' range-ANS coder a thread per chunk (the one serial
 * chain), and the packing a thread per 32-bit word. Nothing is
 * downloaded; the payload's bits and side bits are, only when asked ({@link #payloadBits}, {@link #sideBits}).
 *
 * <p>Each slot (a worker) keeps its payload, its residual (the method's state, {@link #keptVectors}), what the encode
 * found per tensor (where its part starts, which the decode reads from) and the sizes; the histograms, cuts, symbols,
 * codes and coder bytes are shared, as slots encode one at a time on the one stream.
 */
final class CudaJointSqCodec implements KeptInSlots<JointSqFormat> {
    private static final int THREADS = 256;
    /** Threads of {@code gr_jsq_stats}' block ({@code GR_JSQ_STATS_THREADS}): 4 warps, a histogram each. */
    private static final int STATS_THREADS = 128;
    private static final int BINS = 4096;
    /** The most blocks the allocation search runs on (each loops over tensors), bounding its scratch. */
    private static final int PLAN_BLOCKS = 64;
    private static final int INFO = 16;
    private static final int CUTS = 8;
    /** Per tensor, the knapsack's inverse norm, threshold, whether it cut, and the cut's key. */
    private static final int KNAPSACK = 6;
    /** The symbols of a width map's chunk ({@code WidthMap.CHUNK}), each coded on its own. */
    private static final int CHUNK = 8192;

    private final Gpu gpu;
    private final WorkerSlots<Upload> payloads;
    private final WorkerSlots<SlotVectors> residuals;
    private final WorkerSlots<Upload> infos;
    private final WorkerSlots<Upload> sizes;
    /**
     * Per worker: its buffers, so that in a step's graph, where workers run at once, no worker's encode waits for
     * another's ({@link LaneOrder} orders operations of two lanes that touch the same memory). About 4 bytes a value.
     */
    private final WorkerSlots<Buffers> buffers;

    /** A worker's device buffers. */
    private static final class Buffers {
        /** The format's arrays on the device: tensor offsets, budgets and where each tensor's chunks start. */
        final Upload offsets;
        final Upload budgets;
        final Upload chunkStarts;
        /** Scratch of the worker's encode and decode. */
        final Upload chunkHistograms;
        final Upload chunkLargest;
        final Upload histograms;
        final Upload largest;
        final Upload bins;
        final Upload work;
        final Upload cuts;
        final Upload chunkQuotas;
        final Upload symbols;
        final Upload chunkCounts;
        final Upload chunkTransitions;
        final Upload chunkMaxima;
        final Upload frequencies;
        final Upload coderBytes;
        final Upload chunkBytes;
        final Upload chunkPrefix;
        final Upload codes;
        final Upload mapBits;
        final Upload sampleStarts;
        final Upload samplePositions;
        final Upload knapsacks;

        Buffers(Gpu gpu) {
            offsets = new Upload(gpu);
            budgets = new Upload(gpu);
            chunkStarts = new Upload(gpu);
            chunkHistograms = new Upload(gpu);
            chunkLargest = new Upload(gpu);
            histograms = new Upload(gpu);
            largest = new Upload(gpu);
            bins = new Upload(gpu);
            work = new Upload(gpu);
            cuts = new Upload(gpu);
            chunkQuotas = new Upload(gpu);
            symbols = new Upload(gpu);
            chunkCounts = new Upload(gpu);
            chunkTransitions = new Upload(gpu);
            chunkMaxima = new Upload(gpu);
            frequencies = new Upload(gpu);
            coderBytes = new Upload(gpu);
            chunkBytes = new Upload(gpu);
            chunkPrefix = new Upload(gpu);
            codes = new Upload(gpu);
            mapBits = new Upload(gpu);
            sampleStarts = new Upload(gpu);
            samplePositions = new Upload(gpu);
            knapsacks = new Upload(gpu);
        }

        void free() {
            for (Upload u : new Upload[] {offsets, budgets, chunkStarts, chunkHistograms, chunkLargest, histograms,
                    largest, bins, work, cuts, chunkQuotas, symbols, chunkCounts, chunkTransitions, chunkMaxima,
                    frequencies, coderBytes, chunkBytes, chunkPrefix, codes, mapBits, sampleStarts, samplePositions,
                    knapsacks}) {
                u.free();
            }
        }
    }

    /** {@link #chunksOf} of the offsets {@link #chunksFor}. */
    private int[] chunks = new int[0];
    private int[] chunksFor;

    CudaJointSqCodec(Gpu gpu) {
        this.gpu = gpu;
        payloads = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        residuals = new WorkerSlots<>(() -> new SlotVectors(gpu, JointSqFormat.KEPT_VECTORS),
                SlotVectors::free);
        infos = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        sizes = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        buffers = new WorkerSlots<>(() -> new Buffers(gpu), Buffers::free);
    }

    @Override
    public Class<JointSqFormat> formats() {
        return JointSqFormat.class;
    }

    @Override
    public int keptVectors(JointSqFormat format) {
        return JointSqFormat.KEPT_VECTORS;
    }

    @Override
    public WorkerSlots<SlotVectors> keptSlots() {
        return residuals;
    }

    /**
     * Where each tensor's map chunks start in the numbering of all tensors' chunks, and their count last; made again
     * only for another format's offsets.
     */
    private int[] chunksOf(JointSqFormat format) {
        if (chunksFor != format.offsets()) {
            int[] starts = new int[format.tensors() + 1];
            for (int t = 0; t < format.tensors(); t++) {
                int n = format.offsets()[t + 1] - format.offsets()[t];
                starts[t + 1] = starts[t] + Math.max(1, Launches.ceilDiv(n, CHUNK));
            }
            chunks = starts;
            chunksFor = format.offsets();
        }
        return chunks;
    }

    /** The payload's words: enough for the most bits, and one word of slack for the decode's two-word reads. */
    private static long words(JointSqFormat format) {
        return Launches.ceilDiv(format.mostBits(), 32) + 1;
    }

    @Override
    public void encode(int slot, long gradient, JointSqFormat format, long key, long firstDraw) {
        int n = format.length();
        int tensors = format.tensors();
        long words = words(format);
        long payload = payloads.get(slot).reserve(4 * words);
        Buffers b = buffers.get(slot);
        long residual = residuals.get(slot).of(n).address(0);
        long info = infos.get(slot).reserve(8L * INFO * Math.max(1, tensors));
        long size = sizes.get(slot).reserve(16);
        long offset = b.offsets.holding(format.offsets(), () -> Upload.ints(format.offsets()));
        long budget = b.budgets.holding(format.budgets(), () -> Upload.longs(format.budgets()));
        int[] starts = chunksOf(format);
        int chunks = starts[tensors];
        long chunkStart = b.chunkStarts.holding(format.offsets(), () -> Upload.ints(starts));
        int planBlocks = Math.max(1, Math.min(PLAN_BLOCKS, tensors));
        long chunkHistogram = b.chunkHistograms.reserve(4L * BINS * Math.max(1, chunks));
        long chunkLinf = b.chunkLargest.reserve(4L * Math.max(1, chunks));
        long histogram = b.histograms.reserve(4L * BINS * Math.max(1, tensors));
        long linf = b.largest.reserve(4L * Math.max(1, tensors));
        long bin = b.bins.reserve(4L * BINS * planBlocks);
        long scratch = b.work.reserve(8L * 5 * (BINS + 1) * planBlocks);
        long cut = b.cuts.reserve(8L * CUTS * Math.max(1, tensors));
        long chunkQuota = b.chunkQuotas.reserve(8L * Math.max(1, chunks));
        long symbol = b.symbols.reserve(Math.max(1, n));
        long chunkCount = b.chunkCounts.reserve(32L * Math.max(1, chunks));
        long chunkTransition = b.chunkTransitions.reserve(64L * Math.max(1, chunks));
        long chunkMost = b.chunkMaxima.reserve(16L * Math.max(1, chunks));
        long frequency = b.frequencies.reserve(64L * Math.max(1, tensors));
        long bytes = b.coderBytes.reserve(2L * n + 8L * Math.max(1, chunks));
        long chunkByte = b.chunkBytes.reserve(4L * Math.max(1, chunks));
        long chunkFirst = b.chunkPrefix.reserve(4L * Math.max(1, chunks));
        long code = b.codes.reserve(Math.max(1, n));
        if (tensors > 0) {
            gpu.launch("gr_jsq_stats", chunks, 1, 1, STATS_THREADS, 1, 1, KernelArgs.of().address(gradient)
                    .address(residual).address(offset).address(chunkStart).i32(tensors).address(chunkHistogram)
                    .address(chunkLinf));
            gpu.launch("gr_jsq_merge", tensors, BINS / THREADS, 1, THREADS, 1, 1, KernelArgs.of()
                    .address(chunkHistogram).address(chunkLinf).address(chunkStart).address(histogram).address(linf));
            long knapsack = 0;
            if (format.knapsack()) {
                knapsack = b.knapsacks.reserve(8L * KNAPSACK * tensors);
                gpu.launch("gr_jsq_knapsack", tensors, 1, 1, THREADS, 1, 1, KernelArgs.of().address(residual)
                        .address(offset).address(linf).address(budget)
                        .address(b.sampleStarts.holding(format.sampleStarts(),
                                () -> Upload.ints(format.sampleStarts())))
                        .address(b.samplePositions.holding(format.samplePositions(),
                                () -> Upload.ints(format.samplePositions())))
                        .address(cut).address(knapsack));
            } else {
                gpu.launch("gr_jsq_plan", planBlocks, 1, 1, THREADS, 1, 1, KernelArgs.of().address(histogram)
                        .address(linf).address(budget).i32(tensors).address(bin).address(scratch).address(cut));
            }
            gpu.launch("gr_jsq_quota_counts", chunks, 1, 1, THREADS, 1, 1, KernelArgs.of().address(residual)
                    .address(offset).address(chunkStart).i32(tensors).address(cut).address(chunkQuota));
            gpu.launch("gr_jsq_symbols", chunks, 1, 1, THREADS, 1, 1, KernelArgs.of().address(residual)
                    .address(offset).address(chunkStart).i32(tensors).address(cut).address(chunkQuota)
                    .address(knapsack).address(symbol).address(chunkCount).address(chunkTransition)
                    .address(chunkMost));
            Launches.linear(gpu, "gr_jsq_frequencies", tensors, KernelArgs.of().i32(tensors).address(chunkStart)
                    .address(chunkTransition).address(chunkCount).address(chunkMost).address(info)
                    .address(frequency));
            gpu.launch("gr_jsq_quantize", chunks, 1, 1, THREADS, 1, 1, KernelArgs.of().address(residual)
                    .address(offset).address(chunkStart).i32(tensors).address(symbol).address(chunkCount)
                    .address(info).address(code).i64(key).i64(firstDraw));
            Launches.linear(gpu, "gr_jsq_code", chunks, KernelArgs.of().address(symbol).address(offset)
                    .address(chunkStart).i32(tensors).address(frequency).address(bytes).address(chunkByte));
            Launches.linear(gpu, "gr_jsq_map_bits", tensors, KernelArgs.of().address(offset).address(chunkStart)
                    .i32(tensors).address(chunkByte).address(chunkFirst).address(info));
        }
        gpu.launch("gr_jsq_offsets", 1, 1, 1, 1, 1, 1, KernelArgs.of().address(info).i32(tensors).address(size));
        Launches.linear(gpu, "gr_jsq_pack", words, KernelArgs.of().address(payload).i64(words).address(offset)
                .i32(tensors).address(info).address(frequency).address(chunkStart).address(chunkByte)
                .address(chunkFirst).address(symbol).address(bytes).address(code).address(size));
    }

    /** Downloads the bit count the encode of {@code slot} left on the device. */
    @Override
    public long payloadBits(int slot, JointSqFormat format, long planned) {
        return size(slot, 0);
    }

    /** Downloads the side bits (maps and scales) the encode of {@code slot} left on the device. */
    @Override
    public long sideBits(int slot, JointSqFormat format, long payloadBits, long planned) {
        return size(slot, 1);
    }

    private long size(int slot, int which) {
        return Upload.downloadLong(gpu, sizes.get(slot).address() + 8L * which);
    }

    @Override
    public void download(int slot, JointSqFormat format, byte[] out) {
        gpu.downloadBytes(payloads.get(slot).address(), out, (int) Math.min(out.length, (format.mostBits() + 7) / 8));
    }

    @Override
    public void decodeIntoMean(int slot, JointSqFormat format, int worker, int workers, long mean) {
        int tensors = format.tensors();
        if (tensors == 0) {
            return;
        }
        long payload = payloads.get(slot).address();
        long info = infos.get(slot).address();
        Buffers b = buffers.get(slot);
        long offset = b.offsets.holding(format.offsets(), () -> Upload.ints(format.offsets()));
        int[] starts = chunksOf(format);
        int chunks = starts[tensors];
        long chunkStart = b.chunkStarts.holding(format.offsets(), () -> Upload.ints(starts));
        long symbol = b.symbols.reserve(Math.max(1, format.length()));
        long counts = b.chunkCounts.reserve(32L * chunks);
        long bits = b.mapBits.reserve(8L * tensors);
        Launches.linear(gpu, "gr_jsq_read_map", chunks, KernelArgs.of().address(payload).address(info)
                .address(offset).address(chunkStart).i32(tensors).address(symbol).address(counts).address(bits));
        gpu.launch("gr_jsq_decode_mean", chunks, 1, 1, THREADS, 1, 1, KernelArgs.of().address(payload)
                .address(info).address(counts).address(bits).address(offset).address(chunkStart).i32(tensors)
                .address(symbol).i32(worker).i32(workers).f32(1f / workers).address(mean));
    }


    @Override
    public void close() {
        payloads.freeAll();
        residuals.freeAll();
        infos.freeAll();
        sizes.freeAll();
        buffers.freeAll();
    }
}
