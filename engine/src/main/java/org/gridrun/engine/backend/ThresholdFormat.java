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
 * <p>DGC's list is of its accumulator, which the codec keeps in the worker's slot with its momentum
 * ({@link #keptVectors}: {@code u ← momentum·u + g}, {@code v ← v + u} in float arithmetic before the selection, both
 * zeroed at the positions sent after it).
 *
 * @param length          the number of values
 * @param least           the smallest magnitude sent (threshold), or 0 where the sample decides
 * @param samplePositions DGC's sampled positions, in draw order (repeats allowed); empty for threshold. Never changed
 *                        once the format is made
 * @param top             which largest sampled magnitude is the threshold, in [1, samplePositions.length]
 * @param momentum        DGC's momentum ({@code dgc_momentum}); 0 for threshold
 */
public record ThresholdFormat(int length, float least, int[] samplePositions, int top, float momentum)
        implements DeviceFormat {
    /** The vectors DGC keeps in a slot: the momentum {@code u} and the accumulator {@code v}. */
    public static final int DGC_VECTORS = 2;

    /** Threshold's list: every value of magnitude at least {@code least}, and every NaN. */
    public static ThresholdFormat atLeast(int length, float least) {
        return new ThresholdFormat(length, least, new int[0], 0, 0f);
    }

    /**
     * DGC's list: every non-zero value of the accumulator of magnitude at least the {@code top}-th largest sampled
     * one; a gradient of no values has no sample and sends nothing.
     */
    public static ThresholdFormat sampled(int length, int[] samplePositions, int top, float momentum) {
        return new ThresholdFormat(length, 0f, samplePositions, top, momentum);
    }

    /** How many vectors of {@code length} floats the codec keeps in a slot between encodes: DGC's two, or none. */
    public int keptVectors() {
        return sampled() ? DGC_VECTORS : 0;
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
