package org.gridrun.engine.compress;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link Moments#squares}'s sums (of squares, and plain), {@link Moments#chainSquares}' chains, the L∞ norm's
 * maximum, and Smaq's outlier scan, with the Vector API: the chains of additions as the lanes of vectors of doubles,
 * so each lane adds exactly what its chain adds, in the same order.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}. The packed conversion of four floats also
 * avoids the scalar conversion's dependence on the register it writes, which held the scalar loop to one chain.
 */
final class VectorMoments {
    private static final VectorSpecies<Float> FOUR_FLOATS = FloatVector.SPECIES_128;
    private static final VectorSpecies<Double> FOUR_DOUBLES = DoubleVector.SPECIES_256;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    /** Swaps neighbouring lanes: {@code d + swapped} holds {@code a + b} in lanes 0 and 1, {@code c + d} in 2 and 3. */
    private static final VectorShuffle<Double> PAIRS = VectorShuffle.fromValues(FOUR_DOUBLES, 1, 0, 3, 2);

    private VectorMoments() {
    }

    /**
     * {@link Moments#squares} with the plain sum too: its two chains of pair sums ({@code a + b}, {@code c + d}) are
     * lanes 0 and 2 of a vector that adds each value's neighbour to it, in the same order; the sum goes to
     * {@code sum[at]}.
     */
    static double squares(float[] g, int from, int to, double[] sum, int at) {
        DoubleVector q = DoubleVector.zero(FOUR_DOUBLES);
        DoubleVector s = DoubleVector.zero(FOUR_DOUBLES);
        int i = from;
        for (; i + 3 < to; i += 4) {
            DoubleVector d = four(g, i);
            q = q.add(d.mul(d));
            s = s.add(d.add(d.rearrange(PAIRS)));
        }
        double q0 = q.lane(0);
        double s0 = s.lane(0);
        for (; i < to; i++) {
            double a = g[i];
            q0 += a * a;
            s0 += a;
        }
        sum[at] = s0 + s.lane(2);
        return q0 + q.lane(1) + q.lane(2) + q.lane(3);
    }

    /** Doubles of a vector, and as many floats in half its bits. */
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> HALF_FLOATS = VectorSpecies.of(float.class,
            VectorShape.forBitSize(DOUBLES.vectorBitSize() / 2));

    /**
     * {@link Moments#chainSquares}'s chains over the whole rounds of {@link Moments#CHAINS} values of
     * {@code g[from … to)}, added into {@code chains}: each lane adds its chain's values in their order. Returns where
     * the rounds end; the caller adds the rest.
     */
    static int chainSquares(float[] g, int from, int to, double[] chains) {
        int i = from;
        for (; i + Moments.CHAINS <= to; i += Moments.CHAINS) {
            for (int j = 0; j < Moments.CHAINS; j += DOUBLES.length()) {
                DoubleVector d = (DoubleVector) FloatVector.fromArray(HALF_FLOATS, g, i + j)
                        .convertShape(VectorOperators.F2D, DOUBLES, 0);
                DoubleVector.fromArray(DOUBLES, chains, j).add(d.mul(d)).intoArray(chains, j);
            }
        }
        return i;
    }

    /** {@code g[i … i + 4)} as doubles. */
    private static DoubleVector four(float[] g, int i) {
        return (DoubleVector) FloatVector.fromArray(FOUR_FLOATS, g, i)
                .convertShape(VectorOperators.F2D, FOUR_DOUBLES, 0);
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
