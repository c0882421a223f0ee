package org.gridrun.engine.backend.cuda;

import java.util.Arrays;
import org.gridrun.engine.backend.LevelEncoder;
import org.gridrun.engine.backend.Tensor;

/**
 * Encodes a gradient that lives on the GPU with a level quantizer of uniform levels (qsgd, qinf, trn without
 * clipping; {@code quantize.cu}): the bucket norms, then the level indices, written into a device buffer laid out
 * as the wire format, and only the payload crosses to the host. The bytes are the CPU encoder's for the same plan
 * ({@code LevelQuantizer.planDeviceEncode}), so the two can be compared byte for byte.
 *
 * <p>The device buffers (the bucket starts and the payload) are allocated for the first plan's shape and kept while
 * the shape stays; a new shape allocates anew. {@link #close()} frees them.
 */
final class CudaLevelEncoder implements LevelEncoder, AutoCloseable {
    private final Gpu gpu;
    private int[] starts = new int[0];
    private long startsAddress;
    private long payloadAddress;
    private long payloadCapacity;

    CudaLevelEncoder(Gpu gpu) {
        this.gpu = gpu;
    }

    @Override
    public void encode(Tensor gradient, int bits, int levels, boolean largestNorm, int[] bucketStarts, long key,
                       long firstDraw, byte[] out) {
        if (gradient.size() != bucketStarts[bucketStarts.length - 1]) {
            throw new IllegalArgumentException("buckets of " + bucketStarts[bucketStarts.length - 1]
                    + " values for a gradient of " + gradient.size());
        }
        encode(CudaBuffer.of(gradient), bits, levels, largestNorm, bucketStarts, key, firstDraw, out);
    }

    /** {@link #encode(Tensor, int, int, boolean, int[], long, long, byte[])} of the floats at {@code gradient}. */
    void encode(long gradient, int bits, int levels, boolean largestNorm, int[] bucketStarts, long key,
                long firstDraw, byte[] out) {
        int buckets = bucketStarts.length - 1;
        long n = bucketStarts[buckets];
        long words = Launches.ceilDiv((long) bits * n, 32);
        long startsOnDevice = starts(bucketStarts);
        long payload = payloadBuffer(4L * (buckets + words));
        Launches.linear(gpu, "gr_level_norms", buckets, KernelArgs.of().address(gradient).address(startsOnDevice)
                .i32(buckets).i32(largestNorm ? 1 : 0).address(payload));
        if (words > 0) {
            Launches.linear(gpu, "gr_level_uniform_codes", words, KernelArgs.of().address(gradient).i64(n)
                    .address(startsOnDevice).i32(buckets).address(payload).i32(bits).i32(levels - 1).i64(key)
                    .i64(firstDraw).address(payload + 4L * buckets).i64(words));
        }
        gpu.downloadBytes(payload, out, out.length);
    }

    /** The device copy of {@code bucketStarts}, uploaded when they change. */
    private long starts(int[] bucketStarts) {
        if (!Arrays.equals(starts, bucketStarts)) {
            if (startsAddress != 0) {
                gpu.free(startsAddress);
                startsAddress = 0;
            }
            starts = bucketStarts.clone();
            startsAddress = gpu.allocate(4L * starts.length);
            // The upload copies bits; a non-negative index below 2^31 read as a float is never a NaN pattern
            // that a copy could change (those start at 0x7F800001, past any gradient length used here).
            float[] bits = new float[starts.length];
            for (int k = 0; k < starts.length; k++) {
                bits[k] = Float.intBitsToFloat(starts[k]);
            }
            gpu.upload(bits, 0, startsAddress, bits.length);
        }
        return startsAddress;
    }

    private long payloadBuffer(long bytes) {
        if (bytes > payloadCapacity) {
            if (payloadAddress != 0) {
                gpu.free(payloadAddress);
            }
            payloadAddress = gpu.allocate(bytes);
            payloadCapacity = bytes;
        }
        return payloadAddress;
    }

    @Override
    public void close() {
        if (startsAddress != 0) {
            gpu.free(startsAddress);
            startsAddress = 0;
        }
        if (payloadAddress != 0) {
            gpu.free(payloadAddress);
            payloadAddress = 0;
            payloadCapacity = 0;
        }
        starts = new int[0];
    }
}
