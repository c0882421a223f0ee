package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gridrun.engine.backend.LevelCodec;
import org.gridrun.engine.backend.LevelFormat;
import org.gridrun.engine.backend.Tensor;

/**
 * Level quantizers' payloads on the GPU ({@code quantize.cu}): the bucket norms and the level indices written into a
 * device buffer laid out as the wire format, byte for byte what the CPU encoder writes for the same draws
 * ({@code LevelQuantizer.planDeviceEncode}), and decoded from there into the workers' mean as the host collective
 * does, to the bit.
 *
 * <p>Each slot (a worker) keeps its payload buffer, grown once to the largest payload; the bucket starts are uploaded
 * when they change. {@link #close()} frees everything.
 */
final class CudaLevelCodec implements LevelCodec, AutoCloseable {
    private final Gpu gpu;
    private final List<long[]> slots = new ArrayList<>();  // {address, capacity in bytes}
    private int[] starts = new int[0];
    private long startsAddress;

    CudaLevelCodec(Gpu gpu) {
        this.gpu = gpu;
    }

    @Override
    public void encode(int slot, Tensor gradient, LevelFormat format, long key, long firstDraw) {
        if (gradient.size() != format.length()) {
            throw new IllegalArgumentException("a payload of " + format.length() + " values from a gradient of "
                    + gradient.size());
        }
        encode(slot, CudaBuffer.of(gradient), format, key, firstDraw);
    }

    /** {@link #encode(int, Tensor, LevelFormat, long, long)} of the floats at device address {@code gradient}. */
    void encode(int slot, long gradient, LevelFormat format, long key, long firstDraw) {
        int buckets = format.buckets();
        long n = format.length();
        long words = Launches.ceilDiv((long) format.bits() * n, 32);
        long startsOnDevice = starts(format.bucketStarts());
        long payload = payload(slot, 4L * (buckets + words));
        Launches.linear(gpu, "gr_level_norms", buckets, KernelArgs.of().address(gradient).address(startsOnDevice)
                .i32(buckets).i32(format.largestNorm() ? 1 : 0).address(payload));
        if (words > 0) {
            Launches.linear(gpu, "gr_level_uniform_codes", words, KernelArgs.of().address(gradient).i64(n)
                    .address(startsOnDevice).i32(buckets).address(payload).i32(format.bits())
                    .i32(format.levels() - 1).i64(key).i64(firstDraw).address(payload + 4L * buckets).i64(words));
        }
    }

    @Override
    public void download(int slot, LevelFormat format, byte[] out) {
        gpu.downloadBytes(slots.get(slot)[0], out, format.payloadBytes());
    }

    @Override
    public void decodeIntoMean(int slot, LevelFormat format, int worker, int workers, Tensor mean) {
        if (mean.size() != format.length()) {
            throw new IllegalArgumentException("a payload of " + format.length() + " values into a mean of "
                    + mean.size());
        }
        Launches.linear(gpu, "gr_level_uniform_decode_mean", format.length(), KernelArgs.of()
                .address(slots.get(slot)[0]).i64(format.length()).address(starts(format.bucketStarts()))
                .i32(format.buckets()).i32(format.bits()).i32(format.levels()).i32(worker).i32(workers)
                .f32(1f / workers).address(CudaBuffer.of(mean)));
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

    /** {@code slot}'s payload buffer, at least {@code bytes} long. */
    private long payload(int slot, long bytes) {
        while (slots.size() <= slot) {
            slots.add(new long[2]);
        }
        long[] s = slots.get(slot);
        if (bytes > s[1]) {
            if (s[0] != 0) {
                gpu.free(s[0]);
            }
            s[0] = gpu.allocate(bytes);
            s[1] = bytes;
        }
        return s[0];
    }

    @Override
    public void close() {
        for (long[] s : slots) {
            if (s[0] != 0) {
                gpu.free(s[0]);
            }
        }
        slots.clear();
        if (startsAddress != 0) {
            gpu.free(startsAddress);
            startsAddress = 0;
        }
        starts = new int[0];
    }
}
