package org.gridrun.engine.backend;

/**
 * The payload of the sparsifiers that send every value at or above a threshold (threshold, DGC): the count {@code k}
 * in {@link #countWidth} bits, the {@code k} positions ascending, {@link SparseListFormat#indexWidth} bits each, then
 * their values as float32, all least significant bit first. A value is sent when the bits of its magnitude (every NaN
 * one above infinity) are at least the threshold's: at least {@code least}, the smallest float magnitude sent, for
 * threshold; at least the {@code top}-th largest of the magnitudes at {@code samplePositions}, and not zero, for DGC
 * (a NaN threshold then sends every value that is not zero). Its size depends on the values, so {@link #payloadBytes}
 * is only its least and the codec tells the payload's bits after the encode ({@link DeviceCodec#payloadBits}).
 *
 * @param length          the number of values
 * @param least           the smallest magnitude sent (threshold), or 0 where the sample decides
 * @param samplePositions DGC's sampled positions, in draw order (repeats allowed); empty for threshold. Never changed
 *                        once the format is made
 * @param top             which largest sampled magnitude is the threshold, in [1, samplePositions.length]
 */
public record ThresholdFormat(int length, float least, int[] samplePositions, int top) implements DeviceFormat {
    /** Threshold's list: every value of magnitude at least {@code least}, and every NaN. */
    public static ThresholdFormat atLeast(int length, float least) {
        return new ThresholdFormat(length, least, new int[0], 0);
    }

    /** DGC's list: every non-zero value of magnitude at least the {@code top}-th largest sampled one. */
    public static ThresholdFormat sampled(int length, int[] samplePositions, int top) {
        return new ThresholdFormat(length, 0f, samplePositions, top);
    }

    /** Whether the threshold is taken from the sample (DGC), which also leaves zeros out. */
    public boolean sampled() {
        return samplePositions.length > 0;
    }

    /** Bits of the count, which may be anything in [0, n]: {@code max(1, ceil(log2 (n + 1)))}. */
    public static int countWidth(int n) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(n));
    }

    /** The bits of a payload listing {@code k} values. */
    public long bits(long k) {
        return countWidth(length) + k * (SparseListFormat.indexWidth(length) + 32);
    }

    /** The least payload: the count of none. */
    @Override
    public int payloadBytes() {
        return (int) ((bits(0) + 7) / 8);
    }

    /** The bits of a payload of {@code payloadBits} bits that are not values: the count and the positions. */
    @Override
    public long sideBits(long payloadBits, long planned) {
        long k = (payloadBits - countWidth(length)) / (SparseListFormat.indexWidth(length) + 32);
        return payloadBits - 32 * k;
    }
}
