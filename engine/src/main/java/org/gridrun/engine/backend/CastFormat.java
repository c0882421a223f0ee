package org.gridrun.engine.backend;

/**
 * The wire format of a cast to a narrower float ({@code fp16} E5M10, {@code bf16} E8M7, {@code fp8} E5M2), as a
 * device codec needs it: one {@code 1 + exponentBits + mantissaBits}-bit code per value (8 or 16), each code its
 * bytes little-endian, nothing else. Rounding is to nearest even, or stochastic with the 32-bit uniform of value
 * {@code e} taken from draw {@code firstDraw + e/2} (its high half for even {@code e}, its low half for odd).
 *
 * @param exponentBits the exponent's bits, in [2, 8]
 * @param mantissaBits the fraction's bits, in [1, 22]
 * @param stochastic   whether rounding is stochastic, else to nearest even
 * @param length       the number of values
 */
public record CastFormat(int exponentBits, int mantissaBits, boolean stochastic, int length) implements DeviceFormat {
    public CastFormat {
        int width = 1 + exponentBits + mantissaBits;
        if (exponentBits < 2 || exponentBits > 8 || mantissaBits < 1 || (width != 8 && width != 16)) {
            throw new IllegalArgumentException("a cast to E" + exponentBits + "M" + mantissaBits
                    + ": codes of 8 or 16 bits");
        }
    }

    /** Bits per code: 8 or 16. */
    public int width() {
        return 1 + exponentBits + mantissaBits;
    }

    /** {@code width/8 · length}. */
    @Override
    public int payloadBytes() {
        return width() / 8 * length;
    }
}
