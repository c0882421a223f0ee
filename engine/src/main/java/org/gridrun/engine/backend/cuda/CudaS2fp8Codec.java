package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.S2fp8Format;

/**
 * S2FP8's payloads on the GPU ({@code cast.cu}), byte for byte what the CPU encoder writes for the same draws
 * ({@code FloatShiftSqueeze.planDeviceEncode}): a block per tensor fits {@code α} and {@code β}, a thread per value
 * writes its E5M2 code; decoding makes each tensor's table of the 256 codes, then a thread per value adds its entry to
 * the workers' mean, as the host collective does, to the bit.
 */
final class CudaS2fp8Codec extends SlotPayloadCodec<S2fp8Format> {
    private static final int CHAINS = 128;

    private final Upload bounds;
    private final Upload tables;
    private final Upload decoded;

    CudaS2fp8Codec(Gpu gpu) {
        super(gpu, S2fp8Format.class);
        bounds = new Upload(gpu);
        tables = new Upload(gpu);
        decoded = new Upload(gpu);
    }

    @Override
    public void encode(int slot, long gradient, S2fp8Format format, long key, long firstDraw) {
        long payload = reserve(slot, format.payloadBytes());
        int tensors = format.tensors();
        long bound = bounds.holding(format.bounds(), () -> Upload.ints(format.bounds()));
        long table = tables.holding(format.tables(), () -> Upload.doubles(format.tables()));
        gpu.launch("gr_s2fp8_fit", Math.max(1, Math.min(tensors, Launches.MAX_BLOCKS)), 1, 1, CHAINS, 1, 1,
                KernelArgs.of().address(gradient).address(bound).i32(tensors).address(table).address(payload));
        Launches.linear(gpu, "gr_s2fp8_codes", format.length(), KernelArgs.of().address(gradient).i64(format.length())
                .address(bound).i32(tensors).address(table).i32(format.stochastic() ? 1 : 0).i64(key).i64(firstDraw)
                .address(payload));
    }

    @Override
    public void decodeIntoMean(int slot, S2fp8Format format, int worker, int workers, long mean) {
        int tensors = format.tensors();
        long bound = bounds.holding(format.bounds(), () -> Upload.ints(format.bounds()));
        long table = tables.holding(format.tables(), () -> Upload.doubles(format.tables()));
        long values = decoded.reserve(4L * 256 * Math.max(1, tensors));
        Launches.linear(gpu, "gr_s2fp8_tables", 256L * tensors, KernelArgs.of().address(payload(slot)).i32(tensors)
                .address(table).address(values));
        Launches.linear(gpu, "gr_s2fp8_decode_mean", format.length(), KernelArgs.of().address(payload(slot))
                .i64(format.length()).address(bound).i32(tensors).address(values).i32(worker).i32(workers)
                .f32(1f / workers).address(mean));
    }


    @Override
    public void close() {
        bounds.free();
        tables.free();
        decoded.free();
        super.close();
    }
}
