package org.gridrun.engine.compress;

import java.util.List;

/**
 * Which tensors of a layout PowerSGD compresses, at what rank, and where their factors lie.
 *
 * <p>A tensor of shape {@code [d0, d1, …]} is the matrix of {@code n = d0} rows and {@code m = d1·d2·…} columns;
 * its rank is {@code r = min(rank, n, m)}. It is compressed when it has two or more dimensions and its compression
 * rate {@code n·m / ((n + m)·r)} is at least {@code min_compression_rate}; every other tensor is sent raw. The right
 * factors {@code Q} (the state kept across steps) of the compressed tensors lie one after another in one array, in
 * tensor order, each as its {@code r} columns of {@code m} values.
 */
final class LowRankPlan {
    private final int size;
    private final int[] offsets;
    private final int[] rows;
    private final int[] columns;
    private final int[] ranks;
    private final int[] qOffsets;
    private final int qSize;
    private final int[] pOffsets;
    private final int pSize;
    private final long rawValues;
    private final long factorValues;
    private final int maxLeft;
    private final int maxRight;

    /** The plan of {@code layout} for at most {@code rank} and at least {@code minRate}. */
    LowRankPlan(TensorLayout layout, int rank, double minRate) {
        List<TensorLayout.Tensor> tensors = layout.tensors();
        int count = tensors.size();
        size = layout.size();
        offsets = new int[count];
        rows = new int[count];
        columns = new int[count];
        ranks = new int[count];
        qOffsets = new int[count];
        pOffsets = new int[count];
        int q = 0;
        int pTotal = 0;
        long raw = 0;
        long factors = 0;
        int left = 0;
        int right = 0;
        for (int t = 0; t < count; t++) {
            TensorLayout.Tensor tensor = tensors.get(t);
            offsets[t] = tensor.offset();
            rows[t] = tensor.rows();
            columns[t] = tensor.columns();
            int r = Math.min(rank, Math.min(rows[t], columns[t]));
            double rate = (double) rows[t] * columns[t] / ((double) (rows[t] + columns[t]) * r);
            ranks[t] = tensor.shape().length >= 2 && rate >= minRate ? r : 0;
            qOffsets[t] = q;
            q = Math.addExact(q, ranks[t] * columns[t]);
            pOffsets[t] = pTotal;
            pTotal = Math.addExact(pTotal, ranks[t] * rows[t]);
            if (ranks[t] == 0) {
                raw += tensor.size();
            } else {
                factors += (long) (rows[t] + columns[t]) * ranks[t];
                left = Math.max(left, rows[t] * ranks[t]);
                right = Math.max(right, columns[t] * ranks[t]);
            }
        }
        qSize = q;
        pSize = pTotal;
        rawValues = raw;
        factorValues = factors;
        maxLeft = left;
        maxRight = right;
    }

    /** The number of gradient values. */
    int size() {
        return size;
    }

    int tensors() {
        return offsets.length;
    }

    /** Whether tensor {@code t} is compressed (else sent raw). */
    boolean compressed(int t) {
        return ranks[t] > 0;
    }

    int offset(int t) {
        return offsets[t];
    }

    int rows(int t) {
        return rows[t];
    }

    int columns(int t) {
        return columns[t];
    }

    /** The rank of tensor {@code t}; 0 when it is sent raw. */
    int rank(int t) {
        return ranks[t];
    }

    /** Where tensor {@code t}'s Q starts in the array of all right factors. */
    int qOffset(int t) {
        return qOffsets[t];
    }

    /** The length of the array of all right factors. */
    int qSize() {
        return qSize;
    }

    /** Where tensor {@code t}'s P starts in the array of all left factors (kept between steps when alternating). */
    int pOffset(int t) {
        return pOffsets[t];
    }

    /** The length of the array of all left factors. */
    int pSize() {
        return pSize;
    }

    /** The values of the tensors sent raw. */
    long rawValues() {
        return rawValues;
    }

    /** The largest left factor, {@code n·r} values. */
    int maxLeft() {
        return maxLeft;
    }

    /** The largest right factor, {@code m·r} values. */
    int maxRight() {
        return maxRight;
    }

    /** The largest number of columns of a compressed tensor. */
    int maxColumns() {
        int most = 0;
        for (int t = 0; t < offsets.length; t++) {
            most = compressed(t) ? Math.max(most, columns[t]) : most;
        }
        return most;
    }

    /** The float32 values one worker sends in a compressed step: the raw tensors once, P and Q per iteration. */
    long valuesSent(int iterations) {
        return rawValues + iterations * factorValues;
    }
}
