package org.gridrun.engine.backend;

/**
 * Natural compression's wire format: a 9-bit code per value (its sign in the low bit, then its float32 biased exponent,
 * rounded up by one with probability mantissa/2^23; 0 for zero, 255 for a value that is not finite), packed least
 * significant bit first. Value {@code e} takes a 23-bit uniform of draw {@code firstDraw + e/2}: bits 41 to 63 of it
 * for even {@code e}, bits 18 to 40 for odd.
 *
 * @param length the number of values
 */
public record NaturalFormat(int length) implements DeviceFormat {
    /** Bits per value. */
    public static final int BITS = 9;

    @Override
    public int payloadBytes() {
        return (int) ((BITS * (long) length + 7) / 8);
    }
}
