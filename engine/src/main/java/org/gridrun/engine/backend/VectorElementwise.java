package org.gridrun.engine.backend;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link CpuBackend}'s elementwise passes that the JIT left scalar (a ReLU's {@code max}, its bit-masked backward),
 * on the Vector API, lane by lane the scalar operation, so the bits are the scalar ones. Each method covers
 * {@code [from, from + bound(to − from))} and returns where it stopped; the caller's scalar loop does the rest.
 *
 * <p>Loaded only when {@link org.gridrun.engine.simd.Simd#enabled()}.
 */
final class VectorElementwise {
    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    private VectorElementwise() {
    }

    /** {@code y[yo + i] += alpha·x[xo + i]} (a float product, then a float sum: no fused multiply-add). */
    static int axpy(float alpha, float[] x, int xo, float[] y, int yo, int from, int to) {
        int end = from + SPECIES.loopBound(to - from);
        for (int i = from; i < end; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, y, yo + i).add(FloatVector.fromArray(SPECIES, x, xo + i).mul(alpha))
                    .intoArray(y, yo + i);
        }
        return end;
    }

    /** {@code y[yo + i] = max(x[xo + i] + y[yo + i], 0)} ({@link Math#max}'s rules). */
    static int addRelu(float[] x, int xo, float[] y, int yo, int from, int to) {
        int end = from + SPECIES.loopBound(to - from);
        for (int i = from; i < end; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, y, yo + i).add(FloatVector.fromArray(SPECIES, x, xo + i))
                    .lanewise(VectorOperators.MAX, 0f).intoArray(y, yo + i);
        }
        return end;
    }

    /** {@code y[yo + i] = max(x[xo + i], 0)} with {@link Math#max}'s rules (NaN stays NaN, −0 gives +0). */
    static int relu(float[] x, int xo, float[] y, int yo, int from, int to) {
        int end = from + SPECIES.loopBound(to - from);
        for (int i = from; i < end; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, x, xo + i).lanewise(VectorOperators.MAX, 0f).intoArray(y, yo + i);
        }
        return end;
    }

    /** {@code g[go + i]} kept where {@code y[yo + i] > 0}, else +0 (also for a NaN {@code y}). */
    static int reluBackward(float[] y, int yo, float[] g, int go, int from, int to) {
        int end = from + SPECIES.loopBound(to - from);
        FloatVector zero = FloatVector.zero(SPECIES);
        for (int i = from; i < end; i += SPECIES.length()) {
            FloatVector passed = FloatVector.fromArray(SPECIES, y, yo + i);
            zero.blend(FloatVector.fromArray(SPECIES, g, go + i), passed.compare(VectorOperators.GT, 0f))
                    .intoArray(g, go + i);
        }
        return end;
    }
}
