package org.gridrun.engine.compress;

/**
 * One bit per value for the sign methods: bit 1 for a negative value, 0 for zero (either sign), positive or NaN, least significant
 * bit first, packed 32 values to a code.
 */
final class SignBits {
    private SignBits() {
    }

    /** Writes the sign bits of {@code v[start … end)}. */
    static void write(BitPacker packer, float[] v, int start, int end) {
        for (int i = start; i < end; i += 32) {
            int count = Math.min(32, end - i);
            int word = 0;
            for (int j = 0; j < count; j++) {
                word |= (v[i + j] < 0f ? 1 : 0) << j;
            }
            packer.write(word, count);
        }
    }

    /** Reads {@code count} sign bits, writing {@code negative} or {@code positive} into {@code out[start…]}. */
    static void read(BitReader reader, float[] out, int start, int count, float negative, float positive) {
        for (int i = 0; i < count; i += 32) {
            int n = Math.min(32, count - i);
            int word = reader.read(n);
            for (int j = 0; j < n; j++) {
                out[start + i + j] = (word >>> j & 1) != 0 ? negative : positive;
            }
        }
    }
}
