package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.SparseListFormat;
import org.gridrun.engine.backend.ThresholdFormat;

/**
 * The counted lists of threshold and DGC on the GPU ({@code sparse.cu}), byte for byte what the CPU encoders write,
 * and decoded into the workers' mean as the host collective does, to the bit.
 *
 * <p>The threshold is a key on the device: threshold's is the host's smallest float magnitude sent, written there;
 * DGC's is the radix select ({@link RadixSelect}) of the {@code top}-th largest of the magnitudes gathered at its
 * sampled positions. Then a compaction in position order (tile counts, a scan of them whose last entry is the count,
 * a block scan per tile) and a pack of the count and the list, one 32-bit word a thread, which also writes the
 * payload's bits: the count depends on the values, so {@link #payloadBits} downloads them (8 bytes). No atomics.
 *
 * <p>DGC encodes its accumulator, which it keeps in the worker's slot with its momentum ({@link SlotVectors}: vector 0
 * the momentum, 1 the accumulator):
 * before the selection {@code u ← m·u + g} and {@code v ← v + u}, one thread a value in float arithmetic as the
 * host's loop, and after the pack both are zeroed at the positions sent.
 *
 * <p>Each slot (a worker) keeps its payload, its bit count, DGC's sampled positions and vectors, and its encode's
 * selection and compaction buffers (8 bytes a value): in a step's graph, where workers run at once, buffers shared by
 * two workers' encodes would make {@link LaneOrder} run those encodes one after the other.
 */
final class CudaThresholdCodec implements KeptInSlots<ThresholdFormat> {
    /** Threads per block of the compaction ({@code GR_SPARSE_THREADS}). */
    private static final int THREADS = 256;
    /** The most tiles the compaction cuts a gradient into (one scan block sums their counts). */
    private static final int TILES = 1024;

    private final Gpu gpu;
    private final WorkerSlots<Upload> payloads;
    private final WorkerSlots<Upload> bitCounts;
    private final WorkerSlots<Upload> samplePositions;
    private final WorkerSlots<SlotVectors> accumulations;
    private final WorkerSlots<Encoding> encodings;
    /** The decoded payload the mean adds, one at a time outside the workers' lanes. */
    private final Upload dense;

    /**
     * A worker's encode buffers: the selection, the host's least magnitude, DGC's gathered sample, the tile counts
     * and the compacted list.
     */
    private record Encoding(RadixSelect select, Upload least, Upload sample, Upload tileCounts, Upload sentPositions,
                            Upload sentValues) {
        Encoding(Gpu gpu) {
            this(new RadixSelect(gpu), new Upload(gpu), new Upload(gpu), new Upload(gpu), new Upload(gpu),
                    new Upload(gpu));
        }

        void free() {
            select.free();
            for (Upload u : new Upload[] {least, sample, tileCounts, sentPositions, sentValues}) {
                u.free();
            }
        }
    }

    CudaThresholdCodec(Gpu gpu) {
        this.gpu = gpu;
        payloads = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        bitCounts = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        samplePositions = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        accumulations = new WorkerSlots<>(() -> new SlotVectors(gpu, ThresholdFormat.DGC_VECTORS),
                SlotVectors::free);
        encodings = new WorkerSlots<>(() -> new Encoding(gpu), Encoding::free);
        dense = new Upload(gpu);
    }

    @Override
    public Class<ThresholdFormat> formats() {
        return ThresholdFormat.class;
    }

    @Override
    public int keptVectors(ThresholdFormat format) {
        return format.keptVectors();
    }

    @Override
    public WorkerSlots<SlotVectors> keptSlots() {
        return accumulations;
    }

    @Override
    public void encode(int slot, long gradient, ThresholdFormat format, long key, long firstDraw) {
        int n = format.length();
        long words = Launches.ceilDiv(format.bits(n), 32);
        // slack for the bit reader's last window
        long payload = payloads.get(slot).reserve(4 * words + 8);
        long bits = bitCounts.get(slot).reserve(8);
        SlotVectors accumulation = null;
        long values = gradient;
        if (format.sampled()) {
            accumulation = accumulations.get(slot).of(n);
            values = accumulation.address(1);
            Launches.linear(gpu, "gr_dgc_accumulate", n, KernelArgs.of().address(gradient).i64(n)
                    .f32(format.momentum()).address(accumulation.address(0)).address(values));
        }
        Encoding e = encodings.get(slot);
        long selection = threshold(slot, e, values, format);
        int lowest = format.sampled() ? 1 : 0;
        int chunk = Math.max(1, Launches.ceilDiv(n, (long) THREADS * TILES));
        int tiles = Math.max(1, Launches.ceilDiv(n, (long) THREADS * chunk));
        long counts = e.tileCounts().reserve(4L * (tiles + 1));
        gpu.fill32(counts + 4L * tiles, 0, 1);
        gpu.launch("gr_threshold_tile_counts", tiles, 1, 1, THREADS, 1, 1, KernelArgs.of().address(values).i64(n)
                .i32(chunk).address(selection).i32(lowest).address(counts));
        gpu.launch("gr_sparse_exclusive_scan", 1, 1, 1, THREADS, 1, 1, KernelArgs.of().address(counts)
                .i32(tiles + 1));
        long listed = e.sentPositions().reserve(4L * Math.max(1, n));
        long listedValues = e.sentValues().reserve(4L * Math.max(1, n));
        gpu.launch("gr_threshold_compact", tiles, 1, 1, THREADS, 1, 1, KernelArgs.of().address(values).i64(n)
                .i32(chunk).address(selection).i32(lowest).address(counts).address(listed).address(listedValues));
        Launches.linear(gpu, "gr_counted_pack", words, KernelArgs.of().address(listed).address(listedValues)
                .address(counts + 4L * tiles).i32(ThresholdFormat.countWidth(n))
                .i32(SparseListFormat.indexWidth(n)).address(payload).i64(words).address(bits));
        if (accumulation != null) {
            Launches.linear(gpu, "gr_dgc_mask", n, KernelArgs.of().address(listed).address(counts + 4L * tiles)
                    .i64(n).address(accumulation.address(0)).address(values));
        }
    }

    /** The device address of the threshold's key: the host's least magnitude, or the sample's selection. */
    private long threshold(int slot, Encoding e, long values, ThresholdFormat format) {
        if (!format.sampled()) {
            long at = e.least().reserve(4);
            gpu.fill32(at, Float.floatToRawIntBits(format.least()), 1);
            return at;
        }
        int s = format.samplePositions().length;
        long drawn = samplePositions.get(slot).holding(format.samplePositions(),
                () -> Upload.ints(format.samplePositions()));
        long magnitudes = e.sample().reserve(4L * s);
        Launches.linear(gpu, "gr_sample_magnitudes", s, KernelArgs.of().address(values).address(drawn).i64(s)
                .address(magnitudes));
        return e.select().select(magnitudes, s, format.top());
    }

    /** Downloads the bit count the encode of {@code slot} left on the device. */
    @Override
    public long payloadBits(int slot, ThresholdFormat format, long planned) {
        return Upload.downloadLong(gpu, bitCounts.get(slot).address());
    }

    @Override
    public void download(int slot, ThresholdFormat format, byte[] out) {
        gpu.downloadBytes(payloads.get(slot).address(), out, (int) Math.min(out.length,
                (format.bits(format.length()) + 7) / 8));
    }

    @Override
    public void decodeIntoMean(int slot, ThresholdFormat format, int worker, int workers, long mean) {
        int n = format.length();
        if (n == 0) {
            return;
        }
        long decoded = dense.reserve(4L * n);
        gpu.fill32(decoded, 0, n);
        Launches.linear(gpu, "gr_counted_scatter", n, KernelArgs.of().address(payloads.get(slot).address())
                .i32(ThresholdFormat.countWidth(n)).i32(SparseListFormat.indexWidth(n)).i64(n).address(decoded));
        Launches.addToMean(gpu, decoded, n, worker, workers, mean);
    }

    @Override
    public void close() {
        payloads.freeAll();
        bitCounts.freeAll();
        samplePositions.freeAll();
        accumulations.freeAll();
        encodings.freeAll();
        dense.free();
    }
}
