package org.gridrun.engine.backend;

/**
 * The wire format of a bucketed level quantizer, as a device codec needs it: the bucket norms as little-endian
 * float32 (the largest magnitude or the L2 norm of each bucket), then one {@code bits}-bit level index per value,
 * least significant bit first, no padding. Index {@code j} of a bucket with norm {@code s} decodes to
 * {@code (float) (s·levels[j])}. Its arrays are never changed once it is made: a codec may keep what it made of
 * them for as long as it is handed the same format.
 *
 * @param bits         bits per level index
 * @param levels       the levels, sorted, in [-1, 1], at most {@code 2^bits}
 * @param search       how a value finds its two levels when they are not uniform; null for uniform levels, which
 *                     round arithmetically
 * @param largestNorm  whether a bucket is scaled by its largest magnitude, else by its L2 norm
 * @param clipSigmas   {@code k} where each value is first clipped to {@code ±k} standard deviations of its bucket's
 *                     values (TernGrad's clipping; the norm is then the clipped values'), 0 for none
 * @param bucketStarts the first value of each bucket, then the length
 */
public record LevelFormat(int bits, double[] levels, LevelSearchTable search, boolean largestNorm, double clipSigmas,
                          int[] bucketStarts) implements DeviceFormat {
    /** The number of buckets. */
    public int buckets() {
        return bucketStarts.length - 1;
    }

    /** The number of values. */
    @Override
    public int length() {
        return bucketStarts[bucketStarts.length - 1];
    }

    /** The payload's bytes on the wire: {@code ceil((32·buckets + bits·length) / 8)}. */
    @Override
    public int payloadBytes() {
        return (int) ((32L * buckets() + (long) bits * length() + 7) / 8);
    }
}
