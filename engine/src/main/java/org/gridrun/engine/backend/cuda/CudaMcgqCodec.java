package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.McgqFormat;

/**
 * MCGQ's payloads on the GPU ({@code mcgq.cu}), byte for byte what the CPU encoder writes for the same uniforms
 * ({@code Mcgq.planDeviceEncode}): the running sum of magnitudes a thread per chunk of 8192 values, the points each
 * value takes by binary searches, the drawn positions listed a thread per chunk and packed a thread per word; decoded
 * from the payload into a dense gradient added to the workers' mean, as the host collective does. The payload's bits
 * depend on the values and are downloaded only when asked ({@link #payloadBits}).
 */
final class CudaMcgqCodec implements FormatCodec<McgqFormat> {
    private static final int CHUNK = 8192;

    private final Gpu gpu;
    private final WorkerSlots<Upload> payloads;
    private final WorkerSlots<Upload> sizes;
    private final Upload uniforms;
    private final Upload totals;
    private final Upload offsets;
    private final Upload norm;
    private final Upload counts;
    private final Upload chunkDrawn;
    private final Upload first;
    private final Upload indices;
    private final Upload multiplicities;
    private final Upload negatives;
    private final Upload dense;

    CudaMcgqCodec(Gpu gpu) {
        this.gpu = gpu;
        payloads = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        sizes = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
        uniforms = new Upload(gpu);
        totals = new Upload(gpu);
        offsets = new Upload(gpu);
        norm = new Upload(gpu);
        counts = new Upload(gpu);
        chunkDrawn = new Upload(gpu);
        first = new Upload(gpu);
        indices = new Upload(gpu);
        multiplicities = new Upload(gpu);
        negatives = new Upload(gpu);
        dense = new Upload(gpu);
    }

    @Override
    public Class<McgqFormat> formats() {
        return McgqFormat.class;
    }

    /** The payload's words: the most bits, and one word of slack for the decode's two-word reads. */
    private static long words(McgqFormat format) {
        return Launches.ceilDiv(format.mostBits(), 32) + 1;
    }

    @Override
    public void encode(int slot, long gradient, McgqFormat format, long key, long firstDraw) {
        long n = format.length();
        long chunks = Launches.ceilDiv(n, CHUNK);
        long most = Math.max(1, Math.min(format.draws(), n));
        long words = words(format);
        long payload = payloads.get(slot).reserve(4 * words);
        long size = sizes.get(slot).reserve(16);
        long uniform = uniforms.holding(format.uniforms(), () -> Upload.doubles(format.uniforms()));
        long total = totals.reserve(8 * Math.max(1, chunks));
        long offset = offsets.reserve(8 * Math.max(1, chunks));
        long sum = norm.reserve(8);
        long count = counts.reserve(4 * Math.max(1, n));
        long drawn = chunkDrawn.reserve(4 * Math.max(1, chunks));
        long start = first.reserve(8 * Math.max(1, chunks));
        long index = indices.reserve(4 * most);
        long multiplicity = multiplicities.reserve(4 * most);
        long negative = negatives.reserve(most);
        int recordWidth = format.indexWidth() + 1 + format.multiplicityWidth();
        Launches.linear(gpu, "gr_mcgq_chunks", chunks, KernelArgs.of().address(gradient).i64(n).address(total));
        gpu.launch("gr_mcgq_offsets", 1, 1, 1, 1, 1, 1, KernelArgs.of().address(total).i64(chunks).address(offset)
                .address(sum));
        Launches.linear(gpu, "gr_mcgq_counts", chunks, KernelArgs.of().address(gradient).i64(n).address(offset)
                .address(sum).i32(format.draws()).i32(format.independent() ? 1 : 0).address(uniform).address(count)
                .address(drawn));
        gpu.launch("gr_mcgq_first", 1, 1, 1, 1, 1, 1, KernelArgs.of().address(drawn).i64(chunks)
                .i32(format.countWidth()).i32(recordWidth).address(start).address(size));
        Launches.linear(gpu, "gr_mcgq_records", chunks, KernelArgs.of().address(gradient).i64(n).address(count)
                .address(start).address(index).address(multiplicity).address(negative));
        Launches.linear(gpu, "gr_mcgq_pack", words, KernelArgs.of().address(payload).i64(words).address(sum)
                .address(size).i32(format.countWidth()).i32(format.indexWidth()).i32(format.multiplicityWidth())
                .address(index).address(multiplicity).address(negative));
    }

    /** Downloads the bit count the encode of {@code slot} left on the device. */
    @Override
    public long payloadBits(int slot, McgqFormat format, long planned) {
        return Upload.downloadLong(gpu, sizes.get(slot).address());
    }

    @Override
    public void download(int slot, McgqFormat format, byte[] out) {
        gpu.downloadBytes(payloads.get(slot).address(), out, (int) Math.min(out.length, (format.mostBits() + 7) / 8));
    }

    @Override
    public void decodeIntoMean(int slot, McgqFormat format, int worker, int workers, long mean) {
        long n = format.length();
        long payload = payloads.get(slot).address();
        long out = dense.reserve(4 * Math.max(1, n));
        long most = Math.max(1, Math.min(format.draws(), n));
        Launches.linear(gpu, "gr_mcgq_clear", n, KernelArgs.of().address(payload).i64(n).address(out));
        Launches.linear(gpu, "gr_mcgq_scatter", most, KernelArgs.of().address(payload).i64(most).i32(format.draws())
                .i32(format.countWidth()).i32(format.indexWidth()).i32(format.multiplicityWidth()).address(out));
        Launches.addToMean(gpu, out, n, worker, workers, mean);
    }


    @Override
    public void close() {
        payloads.freeAll();
        sizes.freeAll();
        for (Upload u : new Upload[] {uniforms, totals, offsets, norm, counts, chunkDrawn, first, indices,
                multiplicities, negatives, dense}) {
            u.free();
        }
    }
}
