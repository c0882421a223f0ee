package org.gridrun.engine.backend;

/**
 * SmaQ's wire format, as a device codec needs it: {@code μ} and {@code σ} of the values as float32 (sums in double in
 * the host's order; a NaN as the canonical one), the escape width {@code W} in 8 bits, then one record per value,
 * least significant bit first: 6 bits within one deviation, 8 for an outlier, {@code 8 + W} for an escape, each
 * rounding with the 16-bit uniform of value {@code e} (bits {@code 48 − 16·(e mod 4)} of draw
 * {@code firstDraw + e/4}). Its size depends on the values, so {@link #payloadBytes} is only its least and the codec
 * tells the payload's bits after the encode ({@link DeviceCodec#payloadBits}).
 *
 * @param clamp  whether outliers past the 8-bit code's reach are clamped (the paper's), else sent with an escape
 * @param length the number of values
 */
public record SmaqFormat(boolean clamp, int length) implements DeviceFormat {
    /** The header's bits: {@code μ}, {@code σ} and {@code W}. */
    public static final int HEADER_BITS = 72;

    /** The least payload: the header and 6 bits a value. */
    @Override
    public int payloadBytes() {
        return (int) ((HEADER_BITS + 6L * length + 7) / 8);
    }

    /** The most bits a payload of {@code length} values takes: the header and 32 a value. */
    public long mostBits() {
        return HEADER_BITS + 32L * length;
    }
}
