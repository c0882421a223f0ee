package org.gridrun.engine.backend.cuda;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * Device memory that operations borrow for the length of one call: unfolded patches, split-K partial products,
 * per-block partial sums, a result to download. One buffer per {@link Slot}, grown to the largest size asked for
 * and then kept, so once the first training step has seen every shape no operation allocates.
 *
 * <p>An operation may use several slots at once, but never the same slot for two things; since the backend runs one
 * operation at a time on one stream, operations can share slots. Operations of a step's lanes ({@link #lane}), which
 * a graph may run at the same time, share slots only within their lane: each lane has buffers of its own.
 */
final class Scratch implements AutoCloseable {
    /** What a scratch buffer is for. */
    enum Slot {
        /** Unfolded patches of a convolution (im2col). */
        PATCHES,
        /** A convolution's kernels turned by 180°, for its input gradient. */
        KERNELS,
        /** Partial products of a split-K matrix product. */
        SPLIT_K,
        /** Per-block partial sums of a reduction. */
        PARTIALS,
        /** A few values an operation downloads (a loss, a count, an error flag). */
        RESULT
    }

    private final Gpu gpu;
    /** The buffers of each lane, −1 for operations outside every lane. */
    private final Map<Integer, Map<Slot, long[]>> lanes = new HashMap<>();
    private Map<Slot, long[]> buffers;

    Scratch(Gpu gpu) {
        this.gpu = gpu;
        lane(-1);
    }

    /** Lends the buffers of lane {@code lane} (−1: outside every lane) from now on. */
    void lane(int lane) {
        buffers = lanes.computeIfAbsent(lane, l -> new EnumMap<>(Slot.class));
    }

    /** The address of slot {@code slot}'s buffer, grown to hold at least {@code bytes} bytes. */
    long bytes(Slot slot, long bytes) {
        long[] held = buffers.get(slot);
        if (held != null && held[1] >= bytes) {
            return held[0];
        }
        if (held != null) {
            gpu.free(held[0]);
            buffers.remove(slot);
        }
        long size = Math.max(bytes, 256);
        long address = gpu.allocate(size);
        buffers.put(slot, new long[] {address, size});
        return address;
    }

    /** {@link #bytes} for {@code count} floats. */
    long floats(Slot slot, long count) {
        return bytes(slot, 4 * count);
    }

    /** Frees every buffer. */
    @Override
    public void close() {
        for (Map<Slot, long[]> lane : lanes.values()) {
            for (long[] held : lane.values()) {
                gpu.free(held[0]);
            }
            lane.clear();
        }
    }
}
