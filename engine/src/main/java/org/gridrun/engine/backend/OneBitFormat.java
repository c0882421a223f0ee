package org.gridrun.engine.backend;

/**
 * 1-bit SGD's wire format: per bucket of {@code bucketSize} consecutive values, the mean of its values that are not
 * below zero then the mean of those below zero, as float32 (sums in the host's chains, a NaN mean the canonical NaN),
 * all buckets first; then one bit per value, 1 for a value below zero. The method's residual is kept in the worker's
 * slot ({@link #keptVectors}): the codec encodes {@code c = g + e} and leaves {@code e ← c − D(c)}.
 *
 * @param bucketSize the values of a bucket
 * @param length     the number of values
 */
public record OneBitFormat(int bucketSize, int length) implements DeviceFormat {
    /** The method's residual, kept in the slot. */
    public static final int KEPT_VECTORS = 1;

    /** The number of buckets. */
    public int buckets() {
        return (int) ((length + (long) bucketSize - 1) / bucketSize);
    }

    @Override
    public int payloadBytes() {
        return (int) ((64L * buckets() + length + 7) / 8);
    }
}
