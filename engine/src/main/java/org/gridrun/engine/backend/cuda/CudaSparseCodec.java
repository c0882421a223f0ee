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
    private final Upload dense;

    CudaSparseCodec(Gpu gpu) {
        this.gpu = gpu;
        dense = new Upload(gpu);
    }

    /**
     * A worker's payload, for random-k its positions, and for top-k its selection's and compaction's buffers (a
     * worker's own, so that workers whose encodes run at the same time do not wait for each other).
     */
    private static final class Slot {
        final Upload payload;
        final Upload positions;
        final RadixSelect select;
        final Upload tileAbove;
        final Upload tileEqual;
        final Upload listed;
        final Upload listedValues;

        Slot(Gpu gpu) {
            payload = new Upload(gpu);
            positions = new Upload(gpu);
            select = new RadixSelect(gpu);
            tileAbove = new Upload(gpu);
            tileEqual = new Upload(gpu);
            listed = new Upload(gpu);
            listedValues = new Upload(gpu);
        }

        void free() {
            select.free();
            for (Upload u : List.of(payload, positions, tileAbove, tileEqual, listed, listedValues)) {
                u.free();
            }
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
            encodeTopK(s, gradient, topK, payload);
        } else if (format instanceof SharedPositionsFormat shared) {
            Launches.linear(gpu, "gr_shared_positions_encode", shared.kept(), KernelArgs.of().address(gradient)
                    .address(s.positions(shared)).i64(shared.kept()).f32(shared.scale()).address(payload));
        }
    }

    /** Selects, compacts and packs top-k's list of {@code gradient} into {@code payload}, in {@code s}'s buffers. */
    private void encodeTopK(Slot s, long gradient, TopKFormat format, long payload) {
        int n = format.length();
        int k = format.kept();
        long selection = s.select.select(gradient, n, k);
        int chunk = Launches.ceilDiv(n, (long) THREADS * TILES);
        int tiles = Launches.ceilDiv(n, (long) THREADS * chunk);
        long above = s.tileAbove.reserve(4L * tiles);
        long equal = s.tileEqual.reserve(4L * tiles);
        gpu.launch("gr_topk_tile_counts", tiles, 1, 1, THREADS, 1, 1, KernelArgs.of().address(gradient).i64(n)
                .i32(chunk).address(selection).address(above).address(equal));
        for (long counts : new long[] {above, equal}) {
            gpu.launch("gr_sparse_exclusive_scan", 1, 1, 1, THREADS, 1, 1, KernelArgs.of().address(counts)
                    .i32(tiles));
        }
        long listed = s.listed.reserve(4L * k);
        long listedValues = s.listedValues.reserve(4L * k);
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
            s.free();
        }
        slots.clear();
        dense.free();
    }
}
