package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SplitGemmTest {
    private static final int OFFSET = 7;

    private final SplitGemm gemm = new SplitGemm(NetlibBlas.instance());

    @Test
    void rowSplitAgreesWithTheReference() {
        check(300, 20, 40, new Random(1));
    }

    @Test
    void wideProductsSplitByRowsAgreeWithTheReference() {
        check(20, 300, 40, new Random(2));
    }

    @Test
    void innerSplitOfAWeightGradientAgreesWithTheReference() {
        // Aᵀ·B (transA without transB) halves the inner dimension and adds the halves.
        check(12, 20, 2000, new Random(3));
    }

    /** Every transpose combination, operands at an offset, beta ≠ 0; a second run must match bit for bit. */
    private void check(int m, int n, int k, Random rng) {
        for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
                int ar = ta ? k : m;
                int ac = ta ? m : k;
                int br = tb ? n : k;
                int bc = tb ? k : n;
                float[] a = random(rng, ar * ac);
                float[] b = random(rng, br * bc);
                float[] c = random(rng, m * n);
                float[] expected = TestTensors.product(ta, tb, a, ar, ac, b, br, bc, 0.5f, 2f, c);
                float[] first = run(ta, tb, m, n, k, a, ac, b, bc, c);
                String what = "m=" + m + " n=" + n + " k=" + k + " transA=" + ta + " transB=" + tb;
                assertArrayEquals(expected, Arrays.copyOfRange(first, OFFSET, OFFSET + m * n), 2e-3f, what);
                assertArrayEquals(first, run(ta, tb, m, n, k, a, ac, b, bc, c), what + ", second run");
            }
        }
    }

    private float[] run(boolean ta, boolean tb, int m, int n, int k, float[] a, int lda, float[] b, int ldb,
                        float[] c) {
        float[] out = shifted(c);
        gemm.gemm(ta, tb, m, n, k, 0.5f, shifted(a), OFFSET, lda, shifted(b), OFFSET, ldb, 2f, out, OFFSET);
        return out;
    }

    private static float[] shifted(float[] values) {
        float[] out = new float[values.length + 2 * OFFSET];
        Arrays.fill(out, Float.NaN);
        System.arraycopy(values, 0, out, OFFSET, values.length);
        return out;
    }

    private static float[] random(Random rng, int n) {
        return TestTensors.gaussian(rng, n);
    }
}
