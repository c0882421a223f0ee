package org.gridrun.engine.compress;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link Moments#squares}'s sum of squares, and the L∞ norm's maximum, with the Vector API: its four chains of additions as the four lanes of one
 * vector of doubles, so each lane adds exactly what its chain adds, in the same order.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}. The packed conversion of four floats also
 * avoids the scalar conversion's dependence on the register it writes, which held the scalar loop to one chain.
 */
final class VectorMoments {
    private static final VectorSpecies<Float> FOUR_FLOATS = FloatVector.SPECIES_128;
    private static final VectorSpecies<Double> FOUR_DOUBLES = DoubleVector.SPECIES_256;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;

    private VectorMoments() {
    }

    /** The four chains' sums of squares of {@code g[from … to)} (tail included in the first); see {@link Moments}. */
    static double squares(float[] g, int from, int to) {
        DoubleVector q = DoubleVector.zero(FOUR_DOUBLES);
        int i = from;
        for (; i + 3 < to; i += 4) {
            DoubleVector d = (DoubleVector) FloatVector.fromArray(FOUR_FLOATS, g, i)
                    .convertShape(VectorOperators.F2D, FOUR_DOUBLES, 0);
            q = q.add(d.mul(d));
        }
        double q0 = q.lane(0);
        for (; i < to; i++) {
            double a = g[i];
            q0 += a * a;
        }
        return q0 + q.lane(1) + q.lane(2) + q.lane(3);
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
}
