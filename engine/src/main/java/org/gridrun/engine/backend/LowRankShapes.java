package org.gridrun.engine.backend;

/**
 * What a device needs to run PowerSGD's step ({@link DevicePowerIteration}): the gradient's {@code size}, the
 * {@code workers} and their power {@code iterations} a step (half iterations where {@code alternating}), whether the
 * residual is kept, and per tensor {@code t} its {@code offsets[t]}, its matrix of {@code rows[t] × columns[t]}, its
 * rank ({@code ranks[t]}, 0 for a tensor sent raw) and where its right factor Q and its left factor P start among all
 * of them ({@code qOffsets[t]}, {@code qSize} in all; {@code pOffsets[t]}, {@code pSize}).
 */
public record LowRankShapes(int size, int workers, int iterations, boolean alternating, boolean keepResidual,
                            int[] offsets, int[] rows, int[] columns, int[] ranks, int[] qOffsets, int qSize,
                            int[] pOffsets, int pSize) {
    /** The number of tensors. */
    public int tensors() {
        return offsets.length;
    }

    /** The largest {@code rows·rank} of a compressed tensor (its left factor). */
    public int maxLeft() {
        int most = 0;
        for (int t = 0; t < offsets.length; t++) {
            most = Math.max(most, rows[t] * ranks[t]);
        }
        return most;
    }

    /** The largest {@code columns·rank} of a compressed tensor (its right factor). */
    public int maxRight() {
        int most = 0;
        for (int t = 0; t < offsets.length; t++) {
            most = Math.max(most, columns[t] * ranks[t]);
        }
        return most;
    }

    /** The largest rank. */
    public int maxRank() {
        int most = 0;
        for (int rank : ranks) {
            most = Math.max(most, rank);
        }
        return most;
    }
}
