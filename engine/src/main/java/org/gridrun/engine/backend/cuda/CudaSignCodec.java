package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.SignFormat;

/**
 * signSGD's payloads on the GPU ({@code sign.cu}): the scale (its sum of magnitudes in the host's chunked chains,
 * {@link CudaChainSums}) and the sign bits (one thread per 32-bit word) written into each worker's payload buffer,
 * byte for byte what the CPU encoder writes ({@code SignSgd.planDeviceEncode}), and decoded from there into the
 * workers' mean as the host collective does, to the bit.
 */
final class CudaSignCodec extends SlotPayloadCodec<SignFormat> {
    /** Per worker, so that workers' encodes in a step's graph do not wait for each other (LaneOrder). */
    private final WorkerSlots<CudaChainSums> sums;
    /** Per worker: the sum of magnitudes the scale divides, one double. */
    private final WorkerSlots<Upload> sum;

    CudaSignCodec(Gpu gpu) {
        super(gpu, SignFormat.class);
        this.sums = new WorkerSlots<>(() -> new CudaChainSums(gpu), CudaChainSums::close);
        this.sum = new WorkerSlots<>(() -> new Upload(gpu), Upload::free);
    }

    @Override
    public void encode(int slot, long gradient, SignFormat format, long key, long firstDraw) {
        long n = format.length();
        long words = Launches.ceilDiv(n, 32);
        long payload = reserve(slot, 4 * ((format.scaled() ? 1 : 0) + words));
        if (format.scaled()) {
            long total = sum.get(slot).reserve(8);
            sums.get(slot).sum(gradient, n, CudaChainSums.Term.ABS, total);
            gpu.launch("gr_sign_scale", 1, 1, 1, 1, 1, 1, KernelArgs.of().address(total).i64(n).address(payload));
        }
        if (words > 0) {
            signBits(gpu, gradient, n, payload + (format.scaled() ? 4 : 0), words);
        }
    }

    /**
     * The sign bits of the {@code n} floats at {@code values} into the {@code words} 32-bit words at {@code bits}
     * ({@code gr_sign_bits}: a warp a word, blocks of 256 threads, 8 words); 1-bit SGD's bits too.
     */
    static void signBits(Gpu gpu, long values, long n, long bits, long words) {
        gpu.launch("gr_sign_bits", Launches.blocks(words, 8), 1, 1, 256, 1, 1, KernelArgs.of().address(values).i64(n)
                .address(bits).i64(words));
    }

    @Override
    public void decodeIntoMean(int slot, SignFormat format, int worker, int workers, long mean) {
        Launches.linear(gpu, "gr_sign_decode_mean", format.length(), KernelArgs.of().address(payload(slot))
                .i64(format.length()).i32(format.scaled() ? 1 : 0).i32(worker).i32(workers).f32(1f / workers)
                .address(mean));
    }

    @Override
    public void close() {
        super.close();
        sums.freeAll();
        sum.freeAll();
    }
}
