package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.SmaqFormat;

/**
 * SmaQ's payloads on the GPU ({@code smaq.cu}), byte for byte what the CPU encoder writes for the same draws
 * ({@code Smaq.planDeviceEncode}), and decoded from there into the workers' mean as the host collective does, to the
 * bit.
 *
 * <p>Records have 6, 8 or {@code 8 + W} bits, so the encode finds each value's bit offset before it packs: the
 * moments (their sums in the host's chunked chains, {@link CudaChainSums}), per-tile counts of outliers and escapes, a one-block
 * scan of the tiles' counts (which also gives {@code W} and the payload's bits), each value's record and offset (a
 * block scan within its tile), and a pack of one 32-bit word a thread that gathers the records overlapping it. No
 * atomics. The payload's bit count is downloaded after the encode ({@link #payloadBits}, 8 bytes).
 *
 * <p>Each slot (a worker) keeps its payload, its values' offsets (which its decode reads records at), its bit count
 * and its encode's statistics, tile counts and records ({@link WorkerSlots}): in a step's graph, where workers run at
 * once, buffers shared by two workers' encodes would make {@link LaneOrder} run those encodes one after the other.
 * The records cost 4 bytes a value a worker.
 */
final class CudaSmaqCodec implements FormatCodec<SmaqFormat> {
    /** Threads per block ({@code GR_SMAQ_THREADS}). */
    private static final int THREADS = 256;
    /** The most tiles a gradient is cut into (one block scans their counts). */
    private static final int TILES = 1024;
    /** The ints of the parameters the kernels pass on ({@code GR_P_*}). */
    private static final int PARAMETERS = 8;

    private final Gpu gpu;
    /** Per worker: the payload, its values' bit offsets and its bit count. */
    private final WorkerSlots<Upload> payloads;
    private final WorkerSlots<Upload> offsets;
    private final WorkerSlots<Upload> bitCounts;
    /** Per worker: its encode's parameters, tile counts, records, moments and their launcher. */
    private final WorkerSlots<Encoding> encodings;

    /** A worker's encode buffers; {@code sums} holds the values' sum and their squares' sum, two doubles. */
    private record Encoding(Upload parameters, Upload tiles, Upload codes, Upload sums, CudaChainSums chainSums) {
        Encoding(Gpu gpu) {
            this(new Upload(gpu), new Upload(gpu), new Upload(gpu), new Upload(gpu), new CudaChainSums(gpu));
        }

        void free() {
            parameters.free();
            tiles.free();
            codes.free();
            sums.free();
            chainSums.close();
        }
    }

    CudaSmaqCodec(Gpu gpu) {
        this.gpu = gpu;
        payloads = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        offsets = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        bitCounts = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        encodings = new WorkerSlots<>(() -> new Encoding(gpu), Encoding::free);
    }

    @Override
    public Class<SmaqFormat> formats() {
        return SmaqFormat.class;
    }

    @Override
    public void encode(int slot, long gradient, SmaqFormat format, long key, long firstDraw) {
        long n = format.length();
        int clamp = format.clamp() ? 1 : 0;
        long words = Launches.ceilDiv(format.mostBits(), 32);
        long payload = payloads.get(slot).reserve(4 * words);
        long offset = offsets.get(slot).reserve(8 * Math.max(1, n));
        long bits = bitCounts.get(slot).reserve(8);
        Encoding e = encodings.get(slot);
        long p = e.parameters().reserve(4 * PARAMETERS);
        long code = e.codes().reserve(4 * Math.max(1, n));
        int chunk = Math.max(1, Launches.ceilDiv(n, (long) TILES * THREADS));
        int tileCount = Math.max(1, Launches.ceilDiv(n, (long) THREADS * chunk));
        long tile = e.tiles().reserve(12L * tileCount);
        long moments = e.sums().reserve(16);
        e.chainSums().sum(gradient, n, CudaChainSums.Term.PLAIN, moments);
        e.chainSums().sum(gradient, n, CudaChainSums.Term.SQUARE, moments + 8);
        gpu.launch("gr_smaq_moments", 1, 1, 1, 1, 1, 1, KernelArgs.of().address(moments).i64(n).i32(clamp)
                .address(p));
        gpu.launch("gr_smaq_tile_counts", tileCount, 1, 1, THREADS, 1, 1, KernelArgs.of().address(gradient).i64(n)
                .i32(chunk).address(p).address(tile));
        gpu.launch("gr_smaq_offsets", 1, 1, 1, THREADS, 1, 1, KernelArgs.of().address(tile).i32(tileCount).i64(n)
                .i32(clamp).address(p).address(bits));
        gpu.launch("gr_smaq_records", tileCount, 1, 1, THREADS, 1, 1, KernelArgs.of().address(gradient).i64(n)
                .i32(chunk).i32(clamp).address(p).address(tile).i64(key).i64(firstDraw).address(code)
                .address(offset));
        Launches.linear(gpu, "gr_smaq_pack", words, KernelArgs.of().address(code).address(offset).i64(n)
                .i64((long) THREADS * chunk).address(p).address(bits).address(payload).i64(words));
    }

    /** Downloads the bit count the encode of {@code slot} left on the device. */
    @Override
    public long payloadBits(int slot, SmaqFormat format, long planned) {
        return Upload.downloadLong(gpu, bitCounts.get(slot).address());
    }

    @Override
    public void download(int slot, SmaqFormat format, byte[] out) {
        gpu.downloadBytes(payloads.get(slot).address(), out, (int) Math.min(out.length, (format.mostBits() + 7) / 8));
    }

    @Override
    public void decodeIntoMean(int slot, SmaqFormat format, int worker, int workers, long mean) {
        Launches.linear(gpu, "gr_smaq_decode_mean", format.length(), KernelArgs.of()
                .address(payloads.get(slot).address()).address(offsets.get(slot).address()).i64(format.length())
                .i32(worker).i32(workers).f32(1f / workers).address(mean));
    }

    @Override
    public void close() {
        payloads.freeAll();
        offsets.freeAll();
        bitCounts.freeAll();
        encodings.freeAll();
    }
}
