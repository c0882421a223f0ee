package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.CastFormat;

/**
 * Casts' payloads on the GPU ({@code cast.cu}): {@code fp16}, {@code bf16} and {@code fp8} codes written into each
 * worker's payload buffer, byte for byte what the CPU encoder writes for the same draws
 * ({@code FloatCast.planDeviceEncode}), and decoded from there into the workers' mean as the host collective does, to
 * the bit. One thread per value, in both directions.
 */
final class CudaCastCodec extends SlotPayloadCodec<CastFormat> {
    CudaCastCodec(Gpu gpu) {
        super(gpu, CastFormat.class);
    }

    @Override
    public void encode(int slot, long gradient, CastFormat format, long key, long firstDraw) {
        long payload = reserve(slot, format.payloadBytes());
        Launches.linear(gpu, "gr_cast_codes", format.length(), KernelArgs.of().address(gradient).i64(format.length())
                .i32(format.exponentBits()).i32(format.mantissaBits()).i32(format.stochastic() ? 1 : 0).i64(key)
                .i64(firstDraw).address(payload));
    }

    @Override
    public void decodeIntoMean(int slot, CastFormat format, int worker, int workers, long mean) {
        Launches.linear(gpu, "gr_cast_decode_mean", format.length(), KernelArgs.of().address(payload(slot))
                .i64(format.length()).i32(format.exponentBits()).i32(format.mantissaBits()).i32(worker).i32(workers)
                .f32(1f / workers).address(mean));
    }
}
