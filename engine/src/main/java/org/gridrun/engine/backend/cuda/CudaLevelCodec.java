package org.gridrun.engine.backend.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.backend.LevelFormat;
import org.gridrun.engine.backend.LevelSearchTable;

/**
 * Level quantizers' payloads on the GPU ({@code quantize.cu}): the bucket norms and the level indices written into a
 * device buffer laid out as the wire format, byte for byte what the CPU encoder writes for the same draws
 * ({@code LevelQuantizer.planDeviceEncode}), and decoded from there into the workers' mean as the host collective
 * does, to the bit.
 *
 * <p>Each slot (a worker) keeps its payload buffer, grown once to the largest payload, and its bucket starts and
 * levels (with their search tables), uploaded when its format changes; a method that refits its levels uploads them
 * again. {@link #close()} frees everything.
 */
final class CudaLevelCodec implements FormatCodec<LevelFormat> {
    /** Threads of {@code gr_level_norms}' block, one per chain of {@code ChainSums.chains}; a block per bucket. */
    private static final int NORM_THREADS = 128;
    /** The most values of a bucket the fused encode holds in shared memory ({@code GR_FUSED_BUCKET}: 32 KiB). */
    private static final int FUSED_BUCKET = 8192;
    /**
     * Values a block of {@code gr_level_decode_mean} decodes at a time ({@code GR_DECODE_TILE}), a block being
     * {@link Launches#THREADS} threads ({@code GR_DECODE_THREADS}).
     */
    private static final int DECODE_TILE = 4096;

    private final Gpu gpu;
    private final List<Slot> slots = new ArrayList<>();

    CudaLevelCodec(Gpu gpu) {
        this.gpu = gpu;
    }

    /**
     * A worker's device buffers: its payload, its bucket starts, its levels and its buckets' clipping bounds. Each
     * worker's quantizer keeps its format while it stays, so a slot's uploads are made once.
     */
    private static final class Slot {
        final Upload payload;
        final Upload starts;
        final Upload levels;
        final Upload bounds;

        Slot(Gpu gpu) {
            payload = new Upload(gpu);
            starts = new Upload(gpu);
            levels = new Upload(gpu);
            bounds = new Upload(gpu);
        }

        /** The format {@link #fuses} last answered for, and its answer. */
        private LevelFormat fusedFor;
        private boolean fused;

        /** Whether the fused encode takes {@code format} ({@link CudaLevelCodec#fuses}), worked out once a format. */
        boolean fuses(LevelFormat format) {
            if (format != fusedFor) {
                fused = CudaLevelCodec.fuses(format);
                fusedFor = format;
            }
            return fused;
        }

        /** The device copy of the format's bucket starts. */
        long starts(LevelFormat format) {
            return starts.holding(format.bucketStarts(), () -> Upload.ints(format.bucketStarts()));
        }
    }

    @Override
    public Class<LevelFormat> formats() {
        return LevelFormat.class;
    }

    @Override
    public void encode(int slot, long gradient, LevelFormat format, long key, long firstDraw) {
        Slot s = slot(slot);
        int buckets = format.buckets();
        long n = format.length();
        long words = Launches.ceilDiv((long) format.bits() * n, 32);
        long startsOnDevice = s.starts(format);
        long levels = s.levels.holding(format, () -> levelBlock(format));
        long payload = s.payload.reserve(4L * (buckets + words));
        long bounds = s.bounds.reserve(4L * buckets);
        int blocks = Math.max(1, Math.min(buckets, Launches.MAX_BLOCKS));
        int linf = format.largestNorm() ? 1 : 0;
        LevelSearchTable table = format.search();
        if (words > 0 && s.fuses(format)) {
            KernelArgs args = KernelArgs.of().address(gradient).i64(n).address(startsOnDevice).i32(buckets).i32(linf)
                    .f32(clipSigmas(format)).address(bounds).address(payload).i32(format.bits());
            levelArgs(args, format, levels).i64(key).i64(firstDraw).address(payload + 4L * buckets);
            gpu.launch(table == null ? "gr_level_uniform_fused" : "gr_level_search_fused", blocks, 1, 1,
                    NORM_THREADS, 1, 1, args);
            return;
        }
        gpu.launch("gr_level_norms", blocks, 1, 1, NORM_THREADS, 1, 1, KernelArgs.of().address(gradient)
                .address(startsOnDevice).i32(buckets).i32(linf).f32(clipSigmas(format)).address(bounds)
                .address(payload));
        if (words == 0) {
            return;
        }
        KernelArgs args = KernelArgs.of().address(gradient).i64(n).address(startsOnDevice).i32(buckets)
                .address(payload).address(bounds).i32(format.bits());
        levelArgs(args, format, levels).i64(key).i64(firstDraw).address(payload + 4L * buckets).i64(words);
        Launches.linear(gpu, table == null ? "gr_level_uniform_codes" : "gr_level_search_codes", words, args);
    }

    /**
     * The levels' arguments of the codes kernels: the top index for uniform levels; else the levels, the top index,
     * the inverse gaps, the cells' below and above indices and the cells' count, from the level block at
     * {@code levels} ({@link #levelBlock}).
     */
    private static KernelArgs levelArgs(KernelArgs args, LevelFormat format, long levels) {
        int top = format.levels().length - 1;
        LevelSearchTable table = format.search();
        if (table == null) {
            return args.i32(top);
        }
        int count = format.levels().length;
        return args.address(levels).i32(top).address(levels + 8L * count).address(levels + 8L * (2 * count - 1))
                .address(levels + 8L * (2 * count - 1) + 4L * table.cells()).i32(table.cells());
    }

    /**
     * Whether the fused encode ({@code gr_level_*_fused}: one read of the gradient, a bucket a block in shared
     * memory) takes {@code format}: every bucket at most {@code GR_FUSED_BUCKET} values and its codes starting on a
     * 32-bit word (bucket start · bits a multiple of 32), as network-wide buckets of 8192 values are for any width.
     */
    static boolean fuses(LevelFormat format) {
        int[] starts = format.bucketStarts();
        for (int k = 0; k + 1 < starts.length; k++) {
            if (starts[k + 1] - starts[k] > FUSED_BUCKET || (long) starts[k] * format.bits() % 32 != 0) {
                return false;
            }
        }
        return true;
    }

    /** The format's clipping in standard deviations, as the float the kernel takes (exactly). */
    private static float clipSigmas(LevelFormat format) {
        float k = (float) format.clipSigmas();
        if (k != format.clipSigmas()) {
            throw new IllegalArgumentException("a clipping of " + format.clipSigmas()
                    + " standard deviations is not a float; the device codec takes floats");
        }
        return k;
    }

    @Override
    public void download(int slot, LevelFormat format, byte[] out) {
        gpu.downloadBytes(slot(slot).payload.address(), out, format.payloadBytes());
    }

    @Override
    public void decodeIntoMean(int slot, LevelFormat format, int worker, int workers, long mean) {
        Slot s = slot(slot);
        gpu.launch("gr_level_decode_mean", Launches.blocks(format.length(), DECODE_TILE), 1, 1, Launches.THREADS, 1, 1,
                KernelArgs.of().address(s.payload.address())
                .i64(format.length()).address(s.starts(format)).i32(format.buckets())
                .i32(format.bits()).address(s.levels.holding(format, () -> levelBlock(format))).i32(format.levels().length)
                .i32(worker).i32(workers).f32(1f / workers).address(mean));
    }

    private Slot slot(int slot) {
        while (slots.size() <= slot) {
            slots.add(new Slot(gpu));
        }
        return slots.get(slot);
    }

    /**
     * The levels as little-endian doubles, then, where the format searches, the inverse gaps (doubles) and the
     * cells' below and above indices (ints): the layout {@link #encode} hands the kernels.
     */
    private static byte[] levelBlock(LevelFormat format) {
        double[] levels = format.levels();
        LevelSearchTable table = format.search();
        int bytes = 8 * levels.length + (table == null ? 0 : 8 * table.inverseGap().length + 8 * table.cells());
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (double l : levels) {
            b.putDouble(l);
        }
        if (table != null) {
            for (double g : table.inverseGap()) {
                b.putDouble(g);
            }
            for (int i : table.below()) {
                b.putInt(i);
            }
            for (int i : table.above()) {
                b.putInt(i);
            }
        }
        return b.array();
    }

    @Override
    public void close() {
        for (Slot s : slots) {
            s.payload.free();
            s.starts.free();
            s.levels.free();
            s.bounds.free();
        }
        slots.clear();
    }
}
