package org.gridrun.engine.compress;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LevelQuantizer}'s stochastic rounding to uniform levels with the Vector API: a vector of values clamped,
 * scaled, and rounded with their 16-bit uniforms in integers, with no branch per value (nor per vector: a vector
 * that two paths could assign is boxed on the heap by JDK 17's compiler, so even the clamp to an infinite bound,
 * which changes no finite value, runs every time).
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}. Each step is the scalar one, lane by lane, in
 * the same order and precision (a multiply then an add, never a fused one), so every code equals the scalar code.
 */
final class VectorRounding {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final int LANES = FLOATS.length();
    /** The most levels it rounds to: {@code t·2^16} stays below {@code 2^23}, where {@link #truncate} is exact. */
    static final int MAX_LEVELS = 128;

    private VectorRounding() {
    }

    /**
     * {@code codes[j] = min(floor(t + u[j]/2^16), top)} with {@code t = clamp(g[at + j], bound)·ratio + half}, for
     * whole vectors of {@code j} in {@code [0, count)}; returns how many it did. {@code t·2^16} must lie below
     * {@code 2^23}, which {@code top < }{@link #MAX_LEVELS} and a finite {@code ratio} of {@code top/(2‖b‖)} with
     * {@code |v| ≤ ‖b‖} guarantee: there {@link #truncate} and the scalar's truncation to long agree.
     */
    static int uniformCodes(float[] g, int at, int count, int[] u, int[] codes, float bound, float ratio, float half,
                            int top) {
        int j = 0;
        for (; j + LANES <= count; j += LANES) {
            FloatVector v = FloatVector.fromArray(FLOATS, g, at + j).max(-bound).min(bound);
            IntVector fixed = truncate(v.mul(ratio).add(half).mul(0x1.0p16f));
            fixed.add(IntVector.fromArray(INTS, u, j)).lanewise(VectorOperators.ASHR, 16).min(top)
                    .intoArray(codes, j);
        }
        return j;
    }

    /**
     * {@code (int) x} for {@code x} in [0, 2^23), and 0 for a negative {@code x}: {@code x + 2^23} is {@code x}
     * rounded to the nearest integer, whose bits less those of {@code 2^23} are that integer; one less where it
     * rounded up (the sign of {@code x} minus it). The JDK 17 Vector API has no compiled float-to-int conversion; this
     * is four float and three integer operations, none a variable shift.
     */
    static IntVector truncate(FloatVector x) {
        FloatVector positive = x.max(0f);
        FloatVector rounded = positive.add(0x1.0p23f);
        IntVector nearest = rounded.reinterpretAsInts().sub(0x4B000000);
        IntVector down = positive.sub(rounded.sub(0x1.0p23f)).reinterpretAsInts().lanewise(VectorOperators.ASHR, 31);
        return nearest.add(down);
    }
}
