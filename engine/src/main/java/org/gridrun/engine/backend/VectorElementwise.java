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

    /** {@code y[yo + i] += x[xo + i]} for {@code i < n}; returns how many it did (a whole number of vectors). */
    static int add(float[] x, int xo, float[] y, int yo, int n) {
        int end = SPECIES.loopBound(n);
        for (int i = 0; i < end; i += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, y, yo + i).add(FloatVector.fromArray(SPECIES, x, xo + i))
                    .intoArray(y, yo + i);
        }
        return end;
    }

    /**
     * SGD with momentum on {@code n} parameters, as {@link CpuKernels#sgd} does it value by value:
     * {@code d = g + wd·p}, {@code vel = momentum·v + d}, {@code v = vel},
     * {@code p = p − lr·(nesterov ? d + momentum·vel : vel)}. Returns
     * how many it did (a whole number of vectors).
     */
    static int sgd(float[] p, int po, float[] g, int go, float[] v, int vo, int n, float lr, float momentum,
                   boolean nesterov, float wd) {
        int end = SPECIES.loopBound(n);
        for (int i = 0; i < end; i += SPECIES.length()) {
            FloatVector param = FloatVector.fromArray(SPECIES, p, po + i);
            FloatVector d = FloatVector.fromArray(SPECIES, g, go + i).add(param.mul(wd));
            FloatVector vel = FloatVector.fromArray(SPECIES, v, vo + i).mul(momentum).add(d);
            vel.intoArray(v, vo + i);
            FloatVector step = nesterov ? d.add(vel.mul(momentum)) : vel;
            param.sub(step.mul(lr)).intoArray(p, po + i);
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
