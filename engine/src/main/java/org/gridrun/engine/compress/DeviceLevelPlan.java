package org.gridrun.engine.compress;

/**
 * One step's encode of a level quantizer with uniform levels, as an encoder that runs where the gradient lives (the
 * CUDA backend's) needs it to write the payload {@link LevelQuantizer#encode} would have written, byte for byte.
 *
 * @param bits         bits per level index
 * @param levels       the number of uniform levels in [-1, 1] ({@code 2^bits} for qsgd and qinf, 3 for trn)
 * @param largestNorm  whether a bucket is scaled by its largest magnitude (else by its L2 norm)
 * @param bucketStarts the first value of each bucket, then the length
 * @param seed         the random stream's seed
 * @param stream       the random stream
 * @param firstDraw    the stream's position this step's draws start at (value {@code e} takes draw
 *                     {@code firstDraw + e/4})
 * @param payloadBits  the payload's size in bits
 * @param sideBits     the bits of the bucket norms
 */
public record DeviceLevelPlan(int bits, int levels, boolean largestNorm, int[] bucketStarts, long seed, long stream,
                              long firstDraw, long payloadBits, long sideBits) {
    /** The number of buckets. */
    public int buckets() {
        return bucketStarts.length - 1;
    }

    /** The number of values. */
    public int length() {
        return bucketStarts[bucketStarts.length - 1];
    }

    /** An empty payload of this plan's size, for the encoder to fill. */
    public Payload payload() {
        return new Payload(new byte[Payload.byteCount(payloadBits)], payloadBits, sideBits, length());
    }
}
