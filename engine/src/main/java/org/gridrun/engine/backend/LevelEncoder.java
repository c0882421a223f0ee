package org.gridrun.engine.backend;

/**
 * Encodes a gradient where it lives with a level quantizer of uniform levels (qsgd, qinf, trn without clipping),
 * writing the wire format the host encoder writes: the bucket norms as little-endian float32, then one
 * {@code bits}-bit level index per value, least significant bit first. A backend offers one where its device can
 * ({@link Backend#levelEncoder()}); only the payload then crosses to the host.
 */
public interface LevelEncoder {
    /**
     * Writes the payload of {@code gradient} (one row of values) into {@code out}, whose length is the payload's
     * byte count.
     *
     * @param levels       uniform levels in [-1, 1]
     * @param largestNorm  scale each bucket by its largest magnitude, else by its L2 norm
     * @param bucketStarts the first value of each bucket, then the length
     * @param key          the random stream's key ({@code CounterRng.keyOf})
     * @param firstDraw    value {@code e} rounds with the 16-bit piece {@code e mod 4} of draw {@code firstDraw + e/4}
     */
    void encode(Tensor gradient, int bits, int levels, boolean largestNorm, int[] bucketStarts, long key,
                long firstDraw, byte[] out);
}
