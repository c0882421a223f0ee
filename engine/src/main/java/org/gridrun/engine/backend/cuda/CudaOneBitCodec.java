package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.OneBitFormat;

/**
 * 1-bit SGD's payloads on the GPU ({@code sign.cu}), byte for byte what the CPU encoder writes
 * ({@code OneBitSgd.planDeviceEncode}), and decoded from there into the workers' mean as the host collective does, to
 * the bit: a block per bucket adds the residual and finds the two side means (each side's sum in the host's chains),
 * then a thread per 32-bit word packs the sign bits and a thread per value leaves the residual. Each slot keeps its
 * payload and its residual ({@link #keptVectors}).
 */
final class CudaOneBitCodec extends SlotPayloadCodec<OneBitFormat> implements KeptInSlots<OneBitFormat> {
    private static final int CHAINS = 128;

    private final WorkerSlots<SlotVectors> residuals;

    CudaOneBitCodec(Gpu gpu) {
        super(gpu, OneBitFormat.class);
        residuals = new WorkerSlots<>(() -> new SlotVectors(gpu, OneBitFormat.KEPT_VECTORS), SlotVectors::free);
    }

    @Override
    public int keptVectors(OneBitFormat format) {
        return OneBitFormat.KEPT_VECTORS;
    }

    @Override
    public WorkerSlots<SlotVectors> keptSlots() {
        return residuals;
    }

    @Override
    public void encode(int slot, long gradient, OneBitFormat format, long key, long firstDraw) {
        long n = format.length();
        int buckets = format.buckets();
        long words = Launches.ceilDiv(n, 32);
        long payload = reserve(slot, 4 * (2L * buckets + words));
        long residual = residuals.get(slot).of(format.length()).address(0);
        if (buckets > 0) {
            gpu.launch("gr_onebit_means", Math.min(buckets, Launches.MAX_BLOCKS), 1, 1, CHAINS, 1, 1,
                    KernelArgs.of().address(gradient).address(residual).i64(n).i32(format.bucketSize()).i32(buckets)
                            .address(payload));
        }
        CudaSignCodec.signBits(gpu, residual, n, payload + 8L * buckets, words);
        Launches.linear(gpu, "gr_onebit_residual", n, KernelArgs.of().address(residual).i64(n)
                .i32(format.bucketSize()).address(payload));
    }

    @Override
    public void decodeIntoMean(int slot, OneBitFormat format, int worker, int workers, long mean) {
        Launches.linear(gpu, "gr_onebit_decode_mean", format.length(), KernelArgs.of().address(payload(slot))
                .i64(format.length()).i32(format.bucketSize()).i32(format.buckets()).i32(worker).i32(workers)
                .f32(1f / workers).address(mean));
    }

    @Override
    public void close() {
        residuals.freeAll();
        super.close();
    }
}
