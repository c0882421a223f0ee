package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.NaturalFormat;

/**
 * Natural compression's payloads on the GPU ({@code cast.cu}): byte for byte what the CPU encoder writes for the same
 * draws ({@code NaturalCompression.planDeviceEncode}), a thread per 32-bit word gathering the 9-bit codes that overlap
 * it, and decoded from there into the workers' mean as the host collective does, a thread per value.
 */
final class CudaNaturalCodec extends SlotPayloadCodec<NaturalFormat> {
    CudaNaturalCodec(Gpu gpu) {
        super(gpu, NaturalFormat.class);
    }

    @Override
    public void encode(int slot, long gradient, NaturalFormat format, long key, long firstDraw) {
        long words = Launches.ceilDiv((long) NaturalFormat.BITS * format.length(), 32);
        // one word of slack for the decode's two-word reads
        long payload = reserve(slot, 4 * (words + 1));
        Launches.linear(gpu, "gr_natural_pack", words, KernelArgs.of().address(gradient).i64(format.length())
                .i64(key).i64(firstDraw).address(payload).i64(words));
    }

    @Override
    public void decodeIntoMean(int slot, NaturalFormat format, int worker, int workers, long mean) {
        Launches.linear(gpu, "gr_natural_decode_mean", format.length(), KernelArgs.of().address(payload(slot))
                .i64(format.length()).i32(worker).i32(workers).f32(1f / workers).address(mean));
    }
}
