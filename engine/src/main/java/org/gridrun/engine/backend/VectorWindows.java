package org.gridrun.engine.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link CpuWindowKernels}' max-pooling backward pass on the Vector API: a vector holds consecutive channels of a
 * window position, each lane keeping its channel's running maximum and where it is, updated by select rather than by
 * a branch that follows the data (half of lenet5's step went to those branches). The same comparisons in the same
 * order as the scalar loop, so the same inputs win and the gradients are the same bits.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}.
 */
final class VectorWindows {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final IntVector LANE = IntVector.zero(INTS).addIndex(1);

    private VectorWindows() {
    }

    /** The channels the vector loop covers: the largest multiple of the vector length up to {@code channels}. */
    static int bound(int channels) {
        return channels - channels % FLOATS.length();
    }

    /** Scratch for {@link #maxPoolBackward}: one index per lane. */
    static int[] lanes() {
        return new int[FLOATS.length()];
    }

    /**
     * For channels {@code [0, bound)} of one window whose {@code count} positions start at {@code window[k]} (in
     * kernel order, relative to {@code xo}): adds {@code dy[dyAt + ch]} to {@code dx} at the first position holding
     * the channel's maximum.
     */
    static void maxPoolBackward(float[] x, int xo, int[] window, int count, float[] dy, int dyAt, float[] dx, int dxo,
                                int bound, int[] lanes) {
        for (int c = 0; c < bound; c += FLOATS.length()) {
            FloatVector best = FloatVector.fromArray(FLOATS, x, xo + window[0] + c);
            IntVector at = LANE.add(window[0] + c);
            for (int k = 1; k < count; k++) {
                FloatVector v = FloatVector.fromArray(FLOATS, x, xo + window[k] + c);
                VectorMask<Float> greater = v.compare(VectorOperators.GT, best);
                best = best.blend(v, greater);
                at = at.blend(LANE.add(window[k] + c), greater.cast(INTS));
            }
            at.intoArray(lanes, 0);
            for (int l = 0; l < lanes.length; l++) {
                dx[dxo + lanes[l]] += dy[dyAt + c + l];
            }
        }
    }
}
