package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.backend.SharedPositionsFormat;
import org.gridrun.engine.backend.SparseListFormat;
import org.gridrun.engine.backend.TopKFormat;

/**
 * The sparsifiers' payloads on the GPU ({@code sparse.cu}), byte for byte what the CPU encoders write, and decoded
 * into the workers' mean as the host collective does, to the bit.
 *
 * <p>Top-k selects on the device: a radix select of the k-th largest magnitude, four bits a pass (eight passes over
 * the gradient, each a fixed-order count per block and a one-block pick of the digit), then a compaction of the
 * selected positions and values in position order (tile counts, a scan of them, a block scan per tile: two more
 * passes) and a pack of the list, one word a thread. Random-k's positions are drawn by the host instance, which
 * needs them to decode; the device gathers and scales the values at them. Decoding zeroes a dense scratch, scatters
 * the list into it and adds it to the mean.
 *
 * <p>Each slot (a worker) keeps its payload buffer, grown to the largest payload, and random-k's positions; the
 * selection's buffers are shared, as slots encode one at a time on the one stream. {@link #close()} frees all.
 */
final class CudaSparseCodec implements FormatCodec<SparseListFormat> {
    /** Threads per block of the selection kernels ({@code GR_SPARSE_THREADS}). */
    private static final int THREADS = 256;
    /** The most tiles the compaction cuts a gradient into (one scan block sums their counts). */
    private static final int TILES = 1024;

    private final Gpu gpu;
    private final List<Slot> slots = new ArrayList<>();
    private final RadixSelect select;
    private final Upload tileAbove;
    private final Upload tileEqual;
    private final Upload positions;
    private final Upload values;
    private final Upload dense;

    CudaSparseCodec(Gpu gpu) {
        this.gpu = gpu;
        select = new RadixSelect(gpu);
        tileAbove = new Upload(gpu);
        tileEqual = new Upload(gpu);
        positions = new Upload(gpu);
        values = new Upload(gpu);
        dense = new Upload(gpu);
    }

    /** A worker's payload and, for random-k, its positions. */
    private static final class Slot {
        final Upload payload;
        final Upload positions;

        Slot(Gpu gpu) {
            payload = new Upload(gpu);
            positions = new Upload(gpu);
        }

        long positions(SharedPositionsFormat format) {
            return positions.holding(format.positions(), () -> Upload.ints(format.positions()));
        }
    }

    @Override
    public Class<SparseListFormat> formats() {
        return SparseListFormat.class;
    }

    @Override
    public void encode(int slot, long gradient, SparseListFormat format, long key, long firstDraw) {
        Slot s = slot(slot);
        // whole words, and slack for the bit reader's last window
        long payload = s.payload.reserve(4L * Launches.ceilDiv(format.payloadBytes(), 4) + 8);
        if (format.kept() == 0) {
            return;
        }
        if (format instanceof TopKFormat topK) {
            encodeTopK(gradient, topK, payload);
        } else if (format instanceof SharedPositionsFormat shared) {
            Launches.linear(gpu, "gr_shared_positions_encode", shared.kept(), KernelArgs.of().address(gradient)
                    .address(s.positions(shared)).i64(shared.kept()).f32(shared.scale()).address(payload));
        }
    }

    /** Selects, compacts and packs top-k's list of {@code gradient} into {@code payload}. */
    private void encodeTopK(long gradient, TopKFormat format, long payload) {
        int n = format.length();
        int k = format.kept();
        long selection = select.select(gradient, n, k);
        int chunk = Launches.ceilDiv(n, (long) THREADS * TILES);
        int tiles = Launches.ceilDiv(n, (long) THREADS * chunk);
        long above = tileAbove.reserve(4L * tiles);
        long equal = tileEqual.reserve(4L * tiles);
        gpu.launch("gr_topk_tile_counts", tiles, 1, 1, THREADS, 1, 1, KernelArgs.of().address(gradient).i64(n)
                .i32(chunk).address(selection).address(above).address(equal));
        for (long counts : new long[] {above, equal}) {
            gpu.launch("gr_sparse_exclusive_scan", 1, 1, 1, THREADS, 1, 1, KernelArgs.of().address(counts)
                    .i32(tiles));
        }
        long listed = positions.reserve(4L * k);
        long listedValues = values.reserve(4L * k);
        gpu.launch("gr_topk_compact", tiles, 1, 1, THREADS, 1, 1, KernelArgs.of().address(gradient).i64(n)
                .i32(chunk).address(selection).i32(k).address(above).address(equal).address(listed)
                .address(listedValues));
        long words = Launches.ceilDiv(8L * format.payloadBytes(), 32);
        Launches.linear(gpu, "gr_sparse_pack", words, KernelArgs.of().address(listed).address(listedValues).i64(k)
                .i32(SparseListFormat.indexWidth(n)).address(payload).i64(words));
    }

    @Override
    public void download(int slot, SparseListFormat format, byte[] out) {
        if (format.payloadBytes() > 0) {
            gpu.downloadBytes(slot(slot).payload.address(), out, format.payloadBytes());
        }
    }

    @Override
    public void decodeIntoMean(int slot, SparseListFormat format, int worker, int workers, long mean) {
        Slot s = slot(slot);
        int n = format.length();
        if (n == 0) {
            return;
        }
        long decoded = dense.reserve(4L * n);
        gpu.fill32(decoded, 0, n);
        int k = format.kept();
        long payload = s.payload.address();
        if (k > 0) {
            KernelArgs args = KernelArgs.of();
            if (format instanceof TopKFormat topK) {
                args.address(payload).i32(SparseListFormat.indexWidth(n)).address(payload).i64(topK.indexBits());
            } else {
                args.address(s.positions((SharedPositionsFormat) format)).i32(32).address(payload).i64(0);
            }
            Launches.linear(gpu, "gr_sparse_scatter", k, args.i64(k).i64(n).address(decoded));
        }
        Launches.addToMean(gpu, decoded, n, worker, workers, mean);
    }

    private Slot slot(int slot) {
        while (slots.size() <= slot) {
            slots.add(new Slot(gpu));
        }
        return slots.get(slot);
    }

    @Override
    public void close() {
        for (Slot s : slots) {
            s.payload.free();
            s.positions.free();
        }
        slots.clear();
        select.free();
        for (Upload u : List.of(tileAbove, tileEqual, positions, values, dense)) {
            u.free();
        }
    }
}
