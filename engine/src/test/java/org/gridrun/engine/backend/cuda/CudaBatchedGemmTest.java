package org.gridrun.engine.backend.cuda;

import static org.gridrun.engine.backend.TestTensors.gaussian;
import static org.gridrun.engine.backend.TestTensors.tensor;
import static org.gridrun.engine.backend.TestTensors.values;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The CUDA backend's batched product (one launch, the products along the grid's z) gives each product the bits of
 * its own {@code gemm}, in every transpose, for attention's shapes, one-element and odd ones, with alpha and beta,
 * and for a shape that {@code gemm} splits along k (run product by product); and the products are the CPU's.
 */
class CudaBatchedGemmTest {
    /** {m, n, k}: ViT attention's per-head products (65 tokens, 64 per head), edges, and one split along k. */
    private static final int[][] SHAPES = {{65, 65, 64}, {65, 64, 65}, {1, 1, 1}, {7, 130, 3}, {16, 16, 4096}};

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void eachProductHasTheBitsOfItsOwnGemm(GpuTarget target) {
        Random rng = new Random(29);
        int cases = 0;
        try (Backend cuda = target.backend(); Backend cpu = new CpuBackend()) {
            for (int[] shape : SHAPES) {
                for (int count : shape[2] == 4096 ? new int[] {2} : new int[] {1, 3, 5}) {
                    for (int transposes = 0; transposes < 4; transposes++) {
                        boolean ta = (transposes & 2) != 0;
                        boolean tb = (transposes & 1) != 0;
                        int m = shape[0];
                        int n = shape[1];
                        int k = shape[2];
                        int ar = ta ? k : m;
                        int ac = ta ? m : k;
                        int br = tb ? n : k;
                        int bc = tb ? k : n;
                        float[] a = gaussian(rng, count * ar * ac);
                        float[] b = gaussian(rng, count * br * bc);
                        float[] c = gaussian(rng, count * m * n);
                        String what = m + "x" + n + "x" + k + " " + (ta ? 't' : 'n') + (tb ? 't' : 'n') + " x"
                                + count;
                        Tensor ca = tensor(cuda, count * ar, ac, a);
                        Tensor cb = tensor(cuda, count * br, bc, b);
                        Tensor batched = tensor(cuda, count * m, n, c);
                        Tensor looped = tensor(cuda, count * m, n, c);
                        cuda.gemmBatched(ta, tb, 0.5f, ca, cb, 0.25f, batched, count);
                        for (int i = 0; i < count; i++) {
                            cuda.gemm(ta, tb, 0.5f, ca.rowRange(i * ar, ar), cb.rowRange(i * br, br), 0.25f,
                                    looped.rowRange(i * m, m));
                        }
                        float[] actual = values(cuda, batched);
                        assertArrayEquals(values(cuda, looped), actual, 0f, what + ": batched against a loop");
                        Tensor expected = tensor(cpu, count * m, n, c);
                        cpu.gemmBatched(ta, tb, 0.5f, tensor(cpu, count * ar, ac, a), tensor(cpu, count * br, bc, b),
                                0.25f, expected, count);
                        float[] e = values(cpu, expected);
                        for (int i = 0; i < e.length; i++) {
                            assertEquals(e[i], actual[i], 1e-4 * Math.max(1, Math.abs(e[i])) * Math.sqrt(k),
                                    what + ": element " + i + " against the CPU");
                        }
                        cases++;
                    }
                }
            }
        }
        assertEquals(4 * (4 * 3 + 1), cases);
    }
}
