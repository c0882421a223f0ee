package org.gridrun.engine.backend;

/**
 * MCGQ's wire format, as a device codec needs it: {@code ‖g‖₁} as float32 (a NaN as the canonical one), the number
 * {@code d} of distinct drawn positions in {@link #countWidth} bits, then per position, ascending, its index in
 * {@link #indexWidth} bits, its sign in 1 bit (1 negative) and its draw count minus one in {@link #multiplicityWidth}
 * bits. The draws are points on {@code [0, ‖g‖₁)}: {@code u_j·‖g‖₁} for independent sampling, {@code (j + u_0)·‖g‖₁/s}
 * for systematic; value {@code i} takes those at or above the running sum of {@code |g|} before it and below its own,
 * the running sum taken in chunks of 8192 values (each chunk's sum from zero, offset by the chunks' before it). Its
 * size depends on the values, so {@link #payloadBytes} is only its least and the codec tells its bits.
 *
 * @param length      the number of values
 * @param draws       the number {@code s} of points
 * @param independent whether the points are {@code s} independent uniforms, else systematic
 * @param uniforms    the step's uniforms, ascending: {@code s} of them when independent, else one
 */
public record McgqFormat(int length, int draws, boolean independent, double[] uniforms) implements DeviceFormat {
    /** The bits of {@code d}. */
    public int countWidth() {
        return ThresholdFormat.countWidth(Math.min(draws, length));
    }

    /** The bits of a position's index. */
    public int indexWidth() {
        return SparseListFormat.indexWidth(length);
    }

    /** The bits of a draw count minus one. */
    public int multiplicityWidth() {
        return draws <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(draws - 1);
    }

    /** The least payload: the norm and {@code d = 0}. */
    @Override
    public int payloadBytes() {
        return (32 + countWidth() + 7) / 8;
    }

    /** The most bits: every value drawn. */
    public long mostBits() {
        return 32L + countWidth() + (long) Math.min(draws, length) * (indexWidth() + 1 + multiplicityWidth());
    }

    /** The side bits of a payload of {@code payloadBits}: the norm, the count and the indices. */
    @Override
    public long sideBits(long payloadBits, long planned) {
        long d = (payloadBits - 32 - countWidth()) / (indexWidth() + 1 + multiplicityWidth());
        return 32L + countWidth() + d * indexWidth();
    }
}
