package org.gridrun.engine.compress;

/**
 * One bit per value for the sign methods: bit 1 for a negative value, 0 for zero (either sign), positive or NaN, least
 * significant bit first, packed 32 values to a code.
 *
 * <p>Whole groups of 32 values go through an int of bits a group, {@value #CHUNK} groups at a time: the packer and
 * reader move them as whole words ({@link BitPacker#writeAll(int[], int, int)}), and where the Vector API runs
 * ({@link VectorSigns}) a vector compare makes a group's bits and a vector blend spreads them back. The values of a
 * group are read back without a branch on their bit: random signs would mispredict every other one.
 */
final class SignBits {
    /** Groups of 32 values moved at a time. */
    static final int CHUNK = 256;
    /** This thread's words of a chunk: a call allocates nothing (1-bit SGD reads a bucket a call). */
    private static final ThreadLocal<int[]> WORDS = ThreadLocal.withInitial(() -> new int[CHUNK]);

    private SignBits() {
    }

    /** Writes the sign bits of {@code v[start … end)}. */
    static void write(BitPacker packer, float[] v, int start, int end) {
        int[] words = WORDS.get();
        int i = start;
        while (end - i >= 32) {
            int groups = Math.min(CHUNK, (end - i) / 32);
            if (Vectors.signs()) {
                VectorSigns.words(v, i, groups, words);
            } else {
                for (int w = 0; w < groups; w++) {
                    words[w] = word(v, i + 32 * w, 32);
                }
            }
            packer.writeAll(words, groups, 32);
            i += 32 * groups;
        }
        if (i < end) {
            packer.write(word(v, i, end - i), end - i);
        }
    }

    /** The sign bits of {@code v[from … from + count)}, {@code count} at most 32, value {@code from} the lowest. */
    static int word(float[] v, int from, int count) {
        int word = 0;
        for (int j = 0; j < count; j++) {
            word |= (v[from + j] < 0f ? 1 : 0) << j;
        }
        return word;
    }

    /** Reads {@code count} sign bits, writing {@code negative} or {@code positive} into {@code out[start…]}. */
    static void read(BitReader reader, float[] out, int start, int count, float negative, float positive) {
        int[] words = WORDS.get();
        int i = 0;
        while (count - i >= 32) {
            int groups = Math.min(CHUNK, (count - i) / 32);
            reader.readAll(words, groups, 32);
            if (Vectors.signs()) {
                VectorSigns.spread(words, groups, out, start + i, negative, positive);
            } else {
                for (int w = 0; w < groups; w++) {
                    spread(words[w], 32, out, start + i + 32 * w, negative, positive);
                }
            }
            i += 32 * groups;
        }
        if (i < count) {
            spread(reader.read(count - i), count - i, out, start + i, negative, positive);
        }
    }

    /**
     * Each of {@code v[from … to)} less its side's value ({@code negative} where {@code v < 0f}, else
     * {@code positive}) into {@code residual} at the same index: the error that the sign methods with a memory keep.
     * The side is chosen by a mask, not a branch.
     */
    static void residual(float[] v, int from, int to, float negative, float positive, float[] residual) {
        int p = Float.floatToRawIntBits(positive);
        int flip = p ^ Float.floatToRawIntBits(negative);
        for (int i = from; i < to; i++) {
            residual[i] = v[i] - side(v[i] < 0f ? 1 : 0, p, flip);
        }
    }

    /**
     * Writes {@code negative} for each set bit of the low {@code count} of {@code word}, else {@code positive}, into
     * {@code out[from …]}: the value's bits chosen by a mask, not a branch.
     */
    private static void spread(int word, int count, float[] out, int from, float negative, float positive) {
        int p = Float.floatToRawIntBits(positive);
        int flip = p ^ Float.floatToRawIntBits(negative);
        for (int j = 0; j < count; j++) {
            out[from + j] = side(word >>> j & 1, p, flip);
        }
    }

    /**
     * The value of a side by its bit, 1 for the negative side: the positive side's bits {@code positive}, flipped by
     * {@code flip} (the two sides' bits XOR-ed) where the bit is set; a mask, not a branch.
     */
    private static float side(int bit, int positive, int flip) {
        return Float.intBitsToFloat(positive ^ (-bit & flip));
    }
}
