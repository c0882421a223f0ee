package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.RawFormat;

/**
 * Full precision on the GPU: a worker's payload is a copy of its gradient's floats (the host's little-endian bytes,
 * as the device holds them), and decoding adds them to the workers' mean as {@code SimulatedCollective.addToMean}
 * does. It lets a step of the {@code none} method, the baseline of every comparison, stay on the device.
 */
final class CudaRawCodec extends SlotPayloadCodec<RawFormat> {
    CudaRawCodec(Gpu gpu) {
        super(gpu, RawFormat.class);
    }

    @Override
    public void encode(int slot, long gradient, RawFormat format, long key, long firstDraw) {
        long bytes = format.payloadBytes();
        long payload = reserve(slot, bytes);
        if (bytes > 0) {
            gpu.copy(gradient, payload, bytes);
        }
    }

    @Override
    public void decodeIntoMean(int slot, RawFormat format, int worker, int workers, long mean) {
        long n = format.length();
        if (n > 0) {
            Launches.addToMean(gpu, payload(slot), n, worker, workers, mean);
        }
    }
}
