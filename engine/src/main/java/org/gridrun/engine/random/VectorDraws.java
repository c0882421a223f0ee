package org.gridrun.engine.random;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link CounterRng#uniforms16} and {@link CounterRng#uniforms32} with the Vector API: a vector of consecutive draws at once, each lane the SplitMix64
 * finaliser of {@code key + γ·position}, then cut into 16-bit pieces in value order by one lane shuffle and a shift.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}; the integer arithmetic wraps exactly as the
 * scalar generator's does, so every uniform equals the scalar one.
 */
final class VectorDraws {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    /** Draws per vector, and values they serve (four each). */
    private static final int DRAWS = LONGS.length();
    private static final int VALUES = 4 * DRAWS;
    /** {@code γ·lane}: the offsets of a vector's positions from its first. */
    private static final LongVector STEPS = LongVector.fromArray(LONGS, steps(), 0);
    /** For each half of a vector's values, the int lane of the draws holding each value's piece, and its shift. */
    private static final VectorShuffle<Integer> LOW_HALF = VectorShuffle.fromArray(INTS, sources(0), 0);
    private static final VectorShuffle<Integer> HIGH_HALF = VectorShuffle.fromArray(INTS, sources(1), 0);
    private static final IntVector SHIFTS = IntVector.fromArray(INTS, shifts(), 0);

    private VectorDraws() {
    }

    /**
     * Fills {@code out[at … at + count)} with the uniforms of values {@code from} onward, {@code from} a multiple of
     * four, for the generator of {@code key} whose draws start at {@code first}; returns how many it filled (whole
     * vectors).
     */
    static int fill(long key, long first, int from, int[] out, int at, int count) {
        int done = 0;
        long base = key + CounterRng.GAMMA * (first + (from >>> 2));
        long stride = CounterRng.GAMMA * DRAWS;
        for (; done + VALUES <= count; done += VALUES, base += stride) {
            IntVector halves = mix(STEPS.add(base)).reinterpretAsInts();
            pieces(halves, LOW_HALF).intoArray(out, at + done);
            pieces(halves, HIGH_HALF).intoArray(out, at + done + VALUES / 2);
        }
        return done;
    }

    /**
     * Fills {@code out[at … at + count)} with the 32-bit uniforms of values {@code from} onward, {@code from} even,
     * two per draw ({@link CounterRng#uniforms32}); returns how many it filled (whole vectors).
     */
    static int fill32(long key, long first, int from, int[] out, int at, int count) {
        int done = 0;
        long base = key + CounterRng.GAMMA * (first + (from >>> 1));
        long stride = CounterRng.GAMMA * DRAWS;
        for (; done + 2 * DRAWS <= count; done += 2 * DRAWS, base += stride) {
            LongVector z = mix(STEPS.add(base));
            z.lanewise(VectorOperators.LSHL, 32).or(z.lanewise(VectorOperators.LSHR, 32)).reinterpretAsInts()
                    .intoArray(out, at + done);
        }
        return done;
    }

    /** The SplitMix64 finaliser on every lane ({@link CounterRng#mix}). */
    private static LongVector mix(LongVector z) {
        z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 30)).mul(0xBF58476D1CE4E5B9L);
        z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 27)).mul(0x94D049BB133111EBL);
        return z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 31));
    }

    private static IntVector pieces(IntVector halves, VectorShuffle<Integer> order) {
        return halves.rearrange(order).lanewise(VectorOperators.LSHR, SHIFTS).and(0xFFFF);
    }

    private static long[] steps() {
        long[] s = new long[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            s[i] = CounterRng.GAMMA * i;
        }
        return s;
    }

    /**
     * Value {@code v} of a vector takes piece {@code v mod 4} of draw {@code v/4}: pieces 0 and 1 lie in the draw's
     * high int (lane {@code 2·draw + 1}, little-endian), 2 and 3 in its low int.
     */
    private static int[] sources(int half) {
        int[] s = new int[INTS.length()];
        for (int m = 0; m < s.length; m++) {
            int v = half * s.length + m;
            s[m] = 2 * (v / 4) + (v % 4 < 2 ? 1 : 0);
        }
        return s;
    }

    /** Pieces 0 and 2 are the upper 16 bits of their int, 1 and 3 the lower. */
    private static int[] shifts() {
        int[] s = new int[INTS.length()];
        for (int m = 0; m < s.length; m++) {
            s[m] = m % 2 == 0 ? 16 : 0;
        }
        return s;
    }
}
