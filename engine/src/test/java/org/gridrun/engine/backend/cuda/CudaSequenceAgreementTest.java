package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The transformer's operations on the CUDA backend ({@code sequence.cu} through {@link CudaSequence}, and the
 * batched products) against the CPU backend: layer norm and its gradients, GELU on both sides of erf's branch
 * points, row softmax and its gradient, the axis swaps of attention heads and column copies, on shapes from one
 * row to more than one block. Every operand is a view 5 values into a larger tensor whose other values must stay
 * as they were; outputs start as NaN, so an unwritten value fails. On a GPU, values agree within 1e-6 of the largest
 * magnitude (the kernels sum in the CPU's order and precision; only exp's last bit and the GPU's contraction of
 * double products may differ). On the emulator, which contracts nothing and whose exp gives Java's on these values,
 * they are the same bits.
 */
class CudaSequenceAgreementTest {
    private static final double TOLERANCE = 1e-6;
    private static final float GUARD = -12345.5f;
    private static final int[][] ROWS_COLS = {{1, 1}, {1, 7}, {3, 5}, {37, 65}, {300, 24}, {520, 33}};

    /** The same operands in both backends: inputs random, outputs NaN. */
    private static final class Pair implements AutoCloseable {
        final Backend cpu = new CpuBackend();
        final Backend cuda;
        final double tolerance;
        final Random rng = new Random(29);
        final List<Tensor[]> all = new ArrayList<>();

        Pair(GpuTarget target) {
            cuda = target.backend();
            tolerance = target == GpuTarget.EMULATOR ? 0 : TOLERANCE;
        }

        /** A rows × cols view in each backend holding {@code values} (NaN when null). */
        Tensor[] tensor(int rows, int cols, float[] values) {
            float[] padded = new float[rows * cols + 12];
            java.util.Arrays.fill(padded, GUARD);
            for (int i = 0; i < rows * cols; i++) {
                padded[5 + i] = values == null ? Float.NaN : values[i];
            }
            Tensor[] t = {cpu.allocate(1, padded.length), cuda.allocate(1, padded.length)};
            cpu.upload(padded, 0, t[0]);
            cuda.upload(padded, 0, t[1]);
            all.add(t);
            return new Tensor[] {t[0].view(5, rows, cols), t[1].view(5, rows, cols)};
        }

        Tensor[] gaussian(int rows, int cols, double scale) {
            float[] v = new float[rows * cols];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (scale * rng.nextGaussian());
            }
            return tensor(rows, cols, v);
        }

        Tensor[] nan(int rows, int cols) {
            return tensor(rows, cols, null);
        }

        /** Runs {@code op} on both backends' views (index 0: cpu, 1: cuda) and compares every tensor whole. */
        void check(String what, BiConsumer<Backend, Integer> op) {
            op.accept(cpu, 0);
            op.accept(cuda, 1);
            for (Tensor[] t : all) {
                float[] expected = new float[t[0].size()];
                float[] actual = new float[t[1].size()];
                cpu.download(t[0], expected, 0);
                cuda.download(t[1], actual, 0);
                double scale = Float.MIN_NORMAL;
                for (float e : expected) {
                    if (Float.isFinite(e) && e != GUARD) {
                        scale = Math.max(scale, Math.abs(e));
                    }
                }
                for (int i = 0; i < expected.length; i++) {
                    boolean bothNan = Float.isNaN(expected[i]) && Float.isNaN(actual[i]);
                    if (!bothNan && !(Math.abs(expected[i] - actual[i]) <= tolerance * scale)) {
                        fail(what + ": value " + i + " cpu " + expected[i] + ", cuda " + actual[i]);
                    }
                }
            }
            all.forEach(t -> {
                t[0].close();
                t[1].close();
            });
            all.clear();
        }

        @Override
        public void close() {
            cuda.close();
            cpu.close();
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void layerNormAndItsGradientsAgree(GpuTarget target) {
        try (Pair p = new Pair(target)) {
            for (int[] s : ROWS_COLS) {
                Tensor[] x = p.gaussian(s[0], s[1], 3);
                Tensor[] gamma = p.gaussian(1, s[1], 1);
                Tensor[] beta = p.gaussian(1, s[1], 1);
                Tensor[] mean = p.nan(s[0], 1);
                Tensor[] inv = p.nan(s[0], 1);
                Tensor[] y = p.nan(s[0], s[1]);
                Tensor[] dy = p.gaussian(s[0], s[1], 1);
                Tensor[] dGamma = p.nan(1, s[1]);
                Tensor[] dBeta = p.nan(1, s[1]);
                Tensor[] dx = p.nan(s[0], s[1]);
                p.check("layer norm " + s[0] + "x" + s[1], (b, i) -> {
                    b.layerNorm(x[i], gamma[i], beta[i], 1e-5f, mean[i], inv[i], y[i]);
                    b.layerNormBackward(x[i], dy[i], gamma[i], mean[i], inv[i], dGamma[i], dBeta[i], dx[i]);
                });
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void geluAgreesAcrossErfsBranches(GpuTarget target) {
        try (Pair p = new Pair(target)) {
            float[] v = new float[400];
            for (int i = 0; i < v.length; i++) {
                v[i] = -10 + 20f * i / v.length; // through ±2√2 and ±6√2, where erf changes method
            }
            Tensor[] x = p.tensor(20, 20, v);
            Tensor[] y = p.nan(20, 20);
            Tensor[] dy = p.gaussian(20, 20, 1);
            Tensor[] dx = p.nan(20, 20);
            p.check("gelu", (b, i) -> {
                b.gelu(x[i], y[i]);
                b.geluBackward(x[i], dy[i], dx[i]);
            });
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void softmaxAndItsGradientAgree(GpuTarget target) {
        try (Pair p = new Pair(target)) {
            for (int[] s : ROWS_COLS) {
                Tensor[] x = p.gaussian(s[0], s[1], 4);
                Tensor[] y = p.nan(s[0], s[1]);
                Tensor[] dy = p.gaussian(s[0], s[1], 1);
                Tensor[] dx = p.nan(s[0], s[1]);
                p.check("softmax " + s[0] + "x" + s[1], (b, i) -> {
                    b.softmaxRows(x[i], y[i]);
                    b.softmaxRowsBackward(y[i], dy[i], dx[i]);
                });
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void swapsCopiesAndBatchedProductsAgree(GpuTarget target) {
        try (Pair p = new Pair(target)) {
            // [2][5][3][4] -> [2][3][5][4] and back; columns 3..9 of 7 rows into columns 1..7 of 11.
            Tensor[] x = p.gaussian(1, 120, 1);
            Tensor[] y = p.nan(1, 120);
            Tensor[] back = p.nan(1, 120);
            Tensor[] src = p.gaussian(7, 12, 1);
            Tensor[] dst = p.gaussian(7, 11, 1);
            Tensor[] a = p.gaussian(3 * 5, 4, 1);
            Tensor[] bt = p.gaussian(3 * 6, 4, 1);
            Tensor[] c = p.nan(3 * 5, 6);
            p.check("swap, copy, batched gemm", (b, i) -> {
                b.swapAxes(x[i], 2, 5, 3, 4, y[i]);
                b.swapAxes(y[i], 2, 3, 5, 4, back[i]);
                b.copyColumns(src[i], 3, dst[i], 1, 7);
                b.gemmBatched(false, true, 0.5f, a[i], bt[i], 0f, c[i], 3);
            });
        }
        try (CpuBackend cpu = new CpuBackend()) {
            Tensor x = cpu.allocate(1, 24);
            Tensor y = cpu.allocate(1, 24);
            float[] v = new float[24];
            for (int i = 0; i < v.length; i++) {
                v[i] = i;
            }
            cpu.upload(v, 0, x);
            cpu.swapAxes(x, 1, 2, 3, 4, y);
            float[] out = new float[24];
            cpu.download(y, out, 0);
            // x[0][i][j][k] = 12i + 4j + k lands at y[0][j][i][k] = 8j + 4i + k.
            assertEquals(12 * 1 + 4 * 2 + 3, out[8 * 2 + 4 * 1 + 3], 0);
            assertEquals(4 * 1, out[8], 0);
        }
    }
}
