package org.gridrun.engine.compress;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link SignBits}' groups of 32 values with the Vector API: a group's bits from a compare whose lanes select their
 * powers of two, OR-ed across the vector; its values back from the bits by a broadcast, an AND with the powers and a
 * blend; and signum's momentum in lanes of doubles. The same bits and values as the scalar loops
 * ({@code VectorPathTest}).
 *
 * <p>JDK 17 compiles neither {@code VectorMask.toLong} nor {@code fromLong} to a single instruction (a group took 2-3
 * times as long through them), hence the powers. Loaded only when {@link Vectors#signs()}.
 */
final class VectorSigns {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final int LANES = FLOATS.length();
    /** 1, 2, 4, …: lane j's bit. */
    private static final IntVector POWERS = IntVector.broadcast(INTS, 1).lanewise(VectorOperators.LSHL,
            IntVector.zero(INTS).addIndex(1));

    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    /** As many floats as {@link #DOUBLES} holds doubles. */
    private static final VectorSpecies<Float> HALF_FLOATS = VectorSpecies.of(float.class,
            VectorShape.forBitSize(DOUBLES.vectorBitSize() / 2));

    private VectorSigns() {
    }

    /**
     * signum's momentum {@code m[i] ← (float) (β·m[i] + (1 − β)·g[offset + i])}, in double as the scalar loop, over the
     * whole vectors of {@code m[0 … length)}; returns where they end, for the caller to do the rest.
     */
    static int momentum(float[] g, int offset, float[] m, int length, double beta) {
        double rest = 1 - beta;
        int i = 0;
        for (; i + DOUBLES.length() <= length; i += DOUBLES.length()) {
            DoubleVector kept = (DoubleVector) FloatVector.fromArray(HALF_FLOATS, m, i)
                    .convertShape(VectorOperators.F2D, DOUBLES, 0);
            DoubleVector v = (DoubleVector) FloatVector.fromArray(HALF_FLOATS, g, offset + i)
                    .convertShape(VectorOperators.F2D, DOUBLES, 0);
            ((FloatVector) kept.mul(beta).add(v.mul(rest)).convertShape(VectorOperators.D2F, HALF_FLOATS, 0))
                    .intoArray(m, i);
        }
        return i;
    }

    /** Whether a group of 32 values is whole vectors (8 or 16 lanes). */
    static boolean supported() {
        return 32 % LANES == 0 && FLOATS.length() == INTS.length();
    }

    /** The sign bits of {@code groups} groups of 32 values from {@code v[from]} into {@code words[0 … groups)}. */
    static void words(float[] v, int from, int groups, int[] words) {
        IntVector none = IntVector.zero(INTS);
        for (int w = 0, i = from; w < groups; w++) {
            int word = 0;
            for (int k = 0; k < 32; k += LANES, i += LANES) {
                VectorMask<Float> negative = FloatVector.fromArray(FLOATS, v, i).lt(0f);
                word |= none.blend(POWERS, negative.cast(INTS)).reduceLanes(VectorOperators.OR) << k;
            }
            words[w] = word;
        }
    }

    /**
     * {@code negative} for each set bit of {@code words[0 … groups)}, else {@code positive}, into
     * {@code out[from …]}.
     */
    static void spread(int[] words, int groups, float[] out, int from, float negative, float positive) {
        FloatVector p = FloatVector.broadcast(FLOATS, positive);
        FloatVector n = FloatVector.broadcast(FLOATS, negative);
        for (int w = 0, i = from; w < groups; w++) {
            int word = words[w];
            for (int k = 0; k < 32; k += LANES, i += LANES) {
                VectorMask<Integer> set = IntVector.broadcast(INTS, word >>> k).and(POWERS)
                        .compare(VectorOperators.NE, 0);
                p.blend(n, set.cast(FLOATS)).intoArray(out, i);
            }
        }
    }
}
