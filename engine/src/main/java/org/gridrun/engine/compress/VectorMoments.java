package org.gridrun.engine.compress;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link ChainSums#chains}' chains, the L∞ norm's maximum, and Smaq's outlier scan, with the Vector API: the chains
 * of additions as the lanes of vectors of doubles, so each lane adds exactly what its chain adds, in the same order.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}.
 */
final class VectorMoments {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;

    private VectorMoments() {
    }

    /** Doubles of a vector, and as many floats in half its bits. */
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> HALF_FLOATS = VectorSpecies.of(float.class,
            VectorShape.forBitSize(DOUBLES.vectorBitSize() / 2));

    /**
     * {@link ChainSums#chains}' chains over the whole rounds of {@link ChainSums#CHAINS} values of
     * {@code g[from … to)}, each value's {@code term} added into {@code chains}: each lane adds its chain's values in
     * their order. Returns where the rounds end; the caller adds the rest.
     */
    static int chains(float[] g, int from, int to, ChainSums.Term term, double[] chains) {
        int i = from;
        for (; i + ChainSums.CHAINS <= to; i += ChainSums.CHAINS) {
            for (int j = 0; j < ChainSums.CHAINS; j += DOUBLES.length()) {
                DoubleVector d = (DoubleVector) FloatVector.fromArray(HALF_FLOATS, g, i + j)
                        .convertShape(VectorOperators.F2D, DOUBLES, 0);
                DoubleVector t = switch (term) {
                    case PLAIN -> d;
                    case ABS -> d.abs();
                    case SQUARE -> d.mul(d);
                };
                DoubleVector.fromArray(DOUBLES, chains, j).add(t).intoArray(chains, j);
            }
        }
        return i;
    }

    /**
     * The largest sign-cleared bit pattern of {@code g[from … to)} (see {@code LevelQuantizer.Norm}): a maximum, so
     * the order it is taken in does not matter.
     */
    static int largestBits(float[] g, int from, int to) {
        IntVector max = IntVector.zero(INTS);
        int i = from;
        for (; i + INTS.length() <= to; i += INTS.length()) {
            max = max.max(FloatVector.fromArray(FloatVector.SPECIES_PREFERRED, g, i).reinterpretAsInts().and(0x7FFFFFFF));
        }
        int m = max.reduceLanes(VectorOperators.MAX);
        for (; i < to; i++) {
            m = Math.max(m, Float.floatToRawIntBits(g[i]) & 0x7FFFFFFF);
        }
        return m;
    }

    /**
     * Smaq's scan of {@code g[from … to)} with integer vectors, into {@code out}: how many {@code |x − mean|} have
     * magnitude bits above {@code limit}, how many above {@code escapeLimit}, and the largest bits, NaN's being 0;
     * counts and a maximum, so the order does not matter.
     */
    static void outliers(float[] g, int from, int to, float mean, int limit, int escapeLimit, int[] out) {
        IntVector count = IntVector.zero(INTS);
        IntVector escaping = IntVector.zero(INTS);
        IntVector largest = IntVector.zero(INTS);
        int i = from;
        for (; i + INTS.length() <= to; i += INTS.length()) {
            IntVector bits = FloatVector.fromArray(FloatVector.SPECIES_PREFERRED, g, i).sub(mean).reinterpretAsInts()
                    .and(0x7FFFFFFF);
            // NaN (above infinity's bits) to 0: the difference is negative, all ones after the shift, for the rest
            bits = bits.and(bits.sub(0x7F800001).lanewise(VectorOperators.ASHR, 31));
            count = count.add(bits.neg().add(limit).lanewise(VectorOperators.LSHR, 31));
            escaping = escaping.add(bits.neg().add(escapeLimit).lanewise(VectorOperators.LSHR, 31));
            largest = largest.max(bits);
        }
        int c = count.reduceLanes(VectorOperators.ADD);
        int e = escaping.reduceLanes(VectorOperators.ADD);
        int m = largest.reduceLanes(VectorOperators.MAX);
        for (; i < to; i++) {
            int abs = Float.floatToRawIntBits(g[i] - mean) & 0x7FFFFFFF;
            int bits = abs > 0x7F800000 ? 0 : abs;
            c += (limit - bits) >>> 31;
            e += (escapeLimit - bits) >>> 31;
            m = Math.max(m, bits);
        }
        out[0] = c;
        out[1] = e;
        out[2] = m;
    }
}
