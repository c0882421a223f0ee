package org.gridrun.engine.backend.cuda;

import static org.gridrun.engine.backend.TestTensors.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.Random;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.LossSums;
import org.gridrun.engine.backend.Tensor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The CUDA backend's reductions ({@link CudaReductions}: column sums, softmax cross-entropy, accuracy, batch
 * normalisation) against the CPU backend, on awkward shapes: one row, one column, odd sizes, shapes larger than one
 * block in every dimension, tensors that are views at odd offsets inside a larger tensor (whose other elements must
 * stay untouched). Outputs that an operation overwrites are poisoned with NaN first. Floats agree within 1e-5 of
 * the largest magnitude, counts and exceptions exactly, and a repeated call gives the same bits.
 */
class CudaReductionsAgreementTest {
    private static final double TOLERANCE = 1e-5;
    /** The value outside every view; an operation that writes there fails {@link Fixture#checkGuards}. */
    private static final float GUARD = -12345.5f;

    /** The two backends, and tensors allocated in both as views at an odd offset inside a larger tensor. */
    private static final class Fixture implements AutoCloseable {
        final Backend cpu = new CpuBackend();
        final Backend cuda;
        final Random rng;
        private final java.util.List<Both> all = new java.util.ArrayList<>();

        Fixture(GpuTarget target, long seed) {
            this.cuda = target.backend();
            this.rng = new Random(seed);
        }

        /** A rows × cols tensor in each backend holding {@code values}, 5 elements into a larger tensor. */
        Both tensor(int rows, int cols, float[] values) {
            int size = rows * cols;
            Both t = new Both(cpu.allocate(1, size + 12), cuda.allocate(1, size + 12), rows, cols);
            float[] padded = new float[size + 12];
            Arrays.fill(padded, GUARD);
            System.arraycopy(values, 0, padded, 5, size);
            cpu.upload(padded, 0, t.cpuBase);
            cuda.upload(padded, 0, t.gpuBase);
            all.add(t);
            return t;
        }

        Both gaussian(int rows, int cols, double mean, double sd) {
            float[] v = new float[rows * cols];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (mean + sd * rng.nextGaussian());
            }
            return tensor(rows, cols, v);
        }

        Both uniform(int rows, int cols, double low, double high) {
            float[] v = new float[rows * cols];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) (low + (high - low) * rng.nextDouble());
            }
            return tensor(rows, cols, v);
        }

        Both nan(int rows, int cols) {
            float[] v = new float[rows * cols];
            Arrays.fill(v, Float.NaN);
            return tensor(rows, cols, v);
        }

        /** Fails if an element outside any view changed. */
        void checkGuards() {
            for (Both t : all) {
                float[] c = values(cuda, t.gpuBase);
                for (int i = 0; i < c.length; i++) {
                    if ((i < 5 || i >= 5 + t.cpu.size()) && Float.floatToRawIntBits(c[i])
                            != Float.floatToRawIntBits(GUARD)) {
                        fail("element " + i + " outside a " + t.cpu.rows() + "x" + t.cpu.cols() + " view became "
                                + c[i]);
                    }
                }
            }
        }

        @Override
        public void close() {
            cuda.close();
            cpu.close();
        }
    }

    /** One tensor in each backend. */
    private static final class Both {
        final Tensor cpuBase;
        final Tensor gpuBase;
        final Tensor cpu;
        final Tensor gpu;

        Both(Tensor cpuBase, Tensor gpuBase, int rows, int cols) {
            this.cpuBase = cpuBase;
            this.gpuBase = gpuBase;
            this.cpu = cpuBase.view(5, rows, cols);
            this.gpu = gpuBase.view(5, rows, cols);
        }
    }

    /**
     * Fails unless the CUDA tensor agrees with the CPU one within {@link #TOLERANCE} of the largest CPU magnitude
     * (a NaN only where the CPU has one); returns the largest difference over that magnitude.
     */
    private static double assertClose(String what, Fixture f, Both t) {
        return assertClose(what, values(f.cpu, t.cpu), values(f.cuda, t.gpu));
    }

    private static double assertClose(String what, float[] expected, float[] actual) {
        return assertClose(what, expected, actual, TOLERANCE);
    }

    private static double assertClose(String what, float[] expected, float[] actual, double tolerance) {
        double scale = 0;
        for (float e : expected) {
            if (Float.isFinite(e)) {
                scale = Math.max(scale, Math.abs(e));
            }
        }
        scale = Math.max(scale, Float.MIN_NORMAL);
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            if (Float.isNaN(expected[i]) != Float.isNaN(actual[i])) {
                fail(what + "[" + i + "]: expected " + expected[i] + ", found " + actual[i]);
            }
            if (Float.isNaN(expected[i])) {
                continue;
            }
            if (Float.isInfinite(expected[i]) || Float.isInfinite(actual[i])) {
                assertEquals(expected[i], actual[i], what + "[" + i + "]");
                continue;
            }
            double error = Math.abs((double) expected[i] - actual[i]) / scale;
            worst = Math.max(worst, error);
            if (error > tolerance) {
                fail(what + "[" + i + "]: expected " + expected[i] + ", found " + actual[i] + " (" + error
                        + " of the largest magnitude " + scale + ")");
            }
        }
        return worst;
    }

    private static void assertSameBits(String what, float[] a, float[] b) {
        for (int i = 0; i < a.length; i++) {
            if (Float.floatToRawIntBits(a[i]) != Float.floatToRawIntBits(b[i])) {
                fail(what + "[" + i + "] differs between two identical calls: " + a[i] + " then " + b[i]);
            }
        }
    }

    private static void report(String line) {
        System.out.println("CudaReductionsAgreementTest: " + line);
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void columnSumsAgree(GpuTarget target) {
        int[][] shapes = {{1, 1}, {1, 37}, {5, 1}, {0, 4}, {37, 33}, {700, 70}, {3001, 5}};
        try (Fixture f = new Fixture(target, 11)) {
            for (int[] s : shapes) {
                for (float beta : new float[] {0f, 0.75f, 1f}) {
                    Both x = f.gaussian(s[0], s[1], 0.5, 1);
                    Both out = beta == 0f ? f.nan(1, s[1]) : f.gaussian(1, s[1], 0, 1);
                    f.cpu.columnSums(x.cpu, beta, out.cpu);
                    f.cuda.columnSums(x.gpu, beta, out.gpu);
                    double error = assertClose("columnSums " + s[0] + "x" + s[1] + " beta " + beta, f, out);
                    report("columnSums " + s[0] + "x" + s[1] + " beta " + beta + ": max error " + error);
                    if (beta == 0f) {
                        float[] first = values(f.cuda, out.gpu);
                        f.cuda.fill(out.gpu, Float.NaN);
                        f.cuda.columnSums(x.gpu, beta, out.gpu);
                        assertSameBits("columnSums", first, values(f.cuda, out.gpu));
                    }
                }
            }
            f.checkGuards();
        }
    }

    /**
     * The bias gradient of a convolution over a batch of 128 images of 32×32: 131072 rows. The CPU adds each column
     * in float, row after row, which at this length is itself off by about 1e-5, so the check is twofold: values
     * that are multiples of 1/64 in [−1, 1], whose sums are exact in float, must give the CPU's sums exactly; and
     * on Gaussian values the GPU must be within 1e-6 of a sum in double.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void columnSumsOfAConvolutionBias(GpuTarget target) {
        int rows = 128 * 32 * 32;
        int cols = 16;
        try (Fixture f = new Fixture(target, 19)) {
            float[] exact = new float[rows * cols];
            for (int i = 0; i < exact.length; i++) {
                exact[i] = (f.rng.nextInt(129) - 64) / 64f;
            }
            Both x = f.tensor(rows, cols, exact);
            Both out = f.nan(1, cols);
            f.cpu.columnSums(x.cpu, 0f, out.cpu);
            f.cuda.columnSums(x.gpu, 0f, out.gpu);
            assertSameBits("exact column sums", values(f.cpu, out.cpu), values(f.cuda, out.gpu));
            Both g = f.gaussian(rows, cols, 0.25, 1);
            float[] v = values(f.cpu, g.cpu);
            float[] oracle = new float[cols];
            for (int j = 0; j < cols; j++) {
                double sum = 0;
                for (int i = 0; i < rows; i++) {
                    sum += v[i * cols + j];
                }
                oracle[j] = (float) sum;
            }
            f.cpu.columnSums(g.cpu, 0f, out.cpu);
            f.cuda.columnSums(g.gpu, 0f, out.gpu);
            float[] gpu = values(f.cuda, out.gpu);
            double gpuError = assertClose("column sums against double", oracle, gpu, 1e-6);
            double cpuError = assertClose("cpu column sums against double", oracle, values(f.cpu, out.cpu), 1e-4);
            report("columnSums " + rows + "x" + cols + ": exact sums equal; against double, gpu " + gpuError
                    + ", cpu " + cpuError);
            f.checkGuards();
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void softmaxCrossEntropyAgrees(GpuTarget target) {
        int[][] shapes = {{1, 1}, {1, 10}, {13, 10}, {37, 33}, {9, 100}, {70, 1000}};
        try (Fixture f = new Fixture(target, 12)) {
            for (int[] s : shapes) {
                int rows = s[0];
                int cols = s[1];
                for (double range : new double[] {3, 80}) {
                    Both labels = labels(f, rows, cols);
                    float scale = 1f / rows;
                    // grad null, then a separate grad, then grad = logits.
                    Both logits = f.uniform(rows, cols, -range, range);
                    double lossCpu = f.cpu.softmaxCrossEntropy(logits.cpu, labels.cpu, null, scale);
                    double lossGpu = f.cuda.softmaxCrossEntropy(logits.gpu, labels.gpu, null, scale);
                    assertLoss(lossCpu, lossGpu, rows, cols);
                    Both grad = f.nan(rows, cols);
                    assertLoss(f.cpu.softmaxCrossEntropy(logits.cpu, labels.cpu, grad.cpu, scale),
                            f.cuda.softmaxCrossEntropy(logits.gpu, labels.gpu, grad.gpu, scale), rows, cols);
                    double gradError = assertClose("softmax grad " + rows + "x" + cols, f, grad);
                    f.cuda.fill(grad.gpu, Float.NaN);
                    double again = f.cuda.softmaxCrossEntropy(logits.gpu, labels.gpu, grad.gpu, scale);
                    assertEquals(Double.doubleToRawLongBits(lossGpu), Double.doubleToRawLongBits(again),
                            "the loss of two identical calls");
                    float[] gradOnce = values(f.cuda, grad.gpu);
                    assertClose("softmax grad, second call", values(f.cpu, grad.cpu), gradOnce);
                    double aliasCpu = f.cpu.softmaxCrossEntropy(logits.cpu, labels.cpu, logits.cpu, 0.37f);
                    double aliasGpu = f.cuda.softmaxCrossEntropy(logits.gpu, labels.gpu, logits.gpu, 0.37f);
                    assertLoss(aliasCpu, aliasGpu, rows, cols);
                    double aliasError = assertClose("softmax grad in logits " + rows + "x" + cols, f, logits);
                    report("softmax " + rows + "x" + cols + " logits in ±" + range + ": loss " + lossCpu + " vs "
                            + lossGpu + ", grad error " + gradError + ", aliased grad error " + aliasError);
                }
            }
            f.checkGuards();
        }
    }

    private static void assertLoss(double cpu, double gpu, int rows, int cols) {
        assertTrue(Double.isFinite(gpu), "loss " + gpu);
        assertEquals(cpu, gpu, 1e-9 * Math.max(1e-30, Math.abs(cpu)), "loss of " + rows + "x" + cols);
    }

    /** Random class indices in [0, classes). */
    private static Both labels(Fixture f, int rows, int classes) {
        float[] v = new float[rows];
        for (int i = 0; i < rows; i++) {
            v[i] = f.rng.nextInt(classes);
        }
        return f.tensor(rows, 1, v);
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void badLabelsFailAsOnTheCpu(GpuTarget target) {
        float[] bad = {2.5f, -1f, 7f, 8f, Float.NaN, 1e10f, -0.5f, Float.POSITIVE_INFINITY};
        try (Fixture f = new Fixture(target, 13)) {
            int rows = 11;
            int cols = 7;
            Both logits = f.gaussian(rows, cols, 0, 1);
            for (float b : bad) {
                float[] v = new float[rows];
                for (int i = 0; i < rows; i++) {
                    v[i] = i % cols;
                }
                v[4] = b;
                v[9] = -3f;
                Both labels = f.tensor(rows, 1, v);
                String cpu = assertThrows(IllegalArgumentException.class,
                        () -> f.cpu.softmaxCrossEntropy(logits.cpu, labels.cpu, null, 1f)).getMessage();
                String gpu = assertThrows(IllegalArgumentException.class,
                        () -> f.cuda.softmaxCrossEntropy(logits.gpu, labels.gpu, null, 1f)).getMessage();
                assertEquals(cpu, gpu);
                assertTrue(gpu.endsWith("found " + b), gpu);
                // Read a step late, once the next batch's labels (all class indices) are in the same buffer: the
                // message still names the bad label of the batch the sum was made on.
                try (LossSums sums = f.cuda.lossSums(1)) {
                    f.cuda.softmaxCrossEntropy(logits.gpu, labels.gpu, null, 1f, sums, 0);
                    sums.startRead();
                    f.cuda.upload(new float[rows], 0, labels.gpu);
                    assertEquals(cpu, assertThrows(IllegalArgumentException.class, sums::finishRead).getMessage());
                }
            }
        }
        try (Fixture f = new Fixture(target, 14)) {
            int rows = 40;
            int cols = 3;
            Both logits = f.gaussian(rows, cols, 0, 1);
            for (float b : bad) {
                float[] v = new float[rows];
                v[33] = b;
                v[37] = 1.5f;
                Both labels = f.tensor(rows, 1, v);
                String cpu = assertThrows(IllegalArgumentException.class,
                        () -> f.cpu.countCorrect(logits.cpu, labels.cpu)).getMessage();
                String gpu = assertThrows(IllegalArgumentException.class,
                        () -> f.cuda.countCorrect(logits.gpu, labels.gpu)).getMessage();
                assertEquals(cpu, gpu);
                Both grad = f.nan(rows, cols);
                String withGrad = assertThrows(IllegalArgumentException.class,
                        () -> f.cuda.softmaxCrossEntropy(logits.gpu, labels.gpu, grad.gpu, 1f)).getMessage();
                assertEquals(cpu, withGrad);
                report("label " + b + ": " + gpu);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void countCorrectAgrees(GpuTarget target) {
        int[][] shapes = {{1, 1}, {1, 5}, {40, 3}, {33, 70}, {100, 10}, {300, 37}};
        try (Fixture f = new Fixture(target, 15)) {
            for (int[] s : shapes) {
                int rows = s[0];
                int cols = s[1];
                float[] x = new float[rows * cols];
                for (int i = 0; i < x.length; i++) {
                    x[i] = f.rng.nextInt(4);
                }
                // Rows that test the CPU's scan: a NaN first, a NaN later, all −∞, signed zeros, all NaN.
                special(x, rows, cols, 0, j -> j == 0 ? Float.NaN : 1f);
                special(x, rows, cols, 1, j -> j == cols / 2 ? Float.NaN : (float) (j % 3));
                special(x, rows, cols, 2, j -> Float.NEGATIVE_INFINITY);
                special(x, rows, cols, 3, j -> j % 2 == 0 ? -0f : 0f);
                special(x, rows, cols, 4, j -> Float.NaN);
                special(x, rows, cols, 5, j -> j == cols - 1 ? 5f : Float.NaN);
                float[] labels = new float[rows];
                for (int i = 0; i < rows; i++) {
                    labels[i] = i % 2 == 0 ? firstLargest(x, i * cols, cols) : f.rng.nextInt(cols);
                }
                Both logits = f.tensor(rows, cols, x);
                Both l = f.tensor(rows, 1, labels);
                int cpu = f.cpu.countCorrect(logits.cpu, l.cpu);
                int gpu = f.cuda.countCorrect(logits.gpu, l.gpu);
                assertEquals(cpu, gpu, "correct rows of " + rows + "x" + cols);
                assertTrue(cpu >= (rows + 1) / 2, "the labels at the first largest logit count: " + cpu);
                assertEquals(gpu, f.cuda.countCorrect(logits.gpu, l.gpu), "a repeated count");
                // Each row alone, so that a wrong row is found and not hidden by a compensating one.
                for (int i = 0; i < Math.min(rows, 8); i++) {
                    assertEquals(f.cpu.countCorrect(logits.cpu.rowRange(i, 1), l.cpu.rowRange(i, 1)),
                            f.cuda.countCorrect(logits.gpu.rowRange(i, 1), l.gpu.rowRange(i, 1)),
                            "row " + i + " of " + rows + "x" + cols);
                }
                report("countCorrect " + rows + "x" + cols + ": " + cpu + " on both");
            }
            f.checkGuards();
        }
    }

    private static void special(float[] x, int rows, int cols, int row, java.util.function.IntFunction<Float> value) {
        if (row < rows) {
            for (int j = 0; j < cols; j++) {
                x[row * cols + j] = value.apply(j);
            }
        }
    }

    /** The CPU's argmax: a left-to-right scan replacing the best only by a strictly larger value. */
    private static int firstLargest(float[] x, int base, int cols) {
        int best = 0;
        for (int j = 1; j < cols; j++) {
            if (x[base + j] > x[base + best]) {
                best = j;
            }
        }
        return best;
    }

    /** Shapes of batch normalisation: rows × channels, and the mean of the inputs. */
    private static final double[][] NORM_SHAPES = {
        {1, 1, 0}, {2, 3, 0}, {7, 5, 0.5}, {33, 1, 0}, {65, 64, -2}, {300, 37, 0}, {1000, 70, 1}, {2000, 16, 1000},
        {4099, 3, 1000}, {128 * 8 * 8, 64, 0}, {128 * 32 * 32, 16, 1000},
    };

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void batchNormAgrees(GpuTarget target) {
        try (Fixture f = new Fixture(target, 16)) {
            for (double[] s : NORM_SHAPES) {
                int rows = (int) s[0];
                int c = (int) s[1];
                for (int variant = 0; variant < 3; variant++) {
                    boolean running = variant != 1;
                    boolean inPlace = variant == 2;
                    Both x = f.gaussian(rows, c, s[2], 1);
                    Both gamma = f.gaussian(1, c, 1, 0.3);
                    Both beta = f.gaussian(1, c, 0, 1);
                    Both mean = f.nan(1, c);
                    Both invStd = f.nan(1, c);
                    Both runningMean = running ? f.gaussian(1, c, 0, 1) : null;
                    Both runningVar = running ? f.uniform(1, c, 0.5, 1.5) : null;
                    Both y = inPlace ? x : f.nan(rows, c);
                    f.cpu.batchNorm(x.cpu, gamma.cpu, beta.cpu, 1e-5f, mean.cpu, invStd.cpu,
                            running ? runningMean.cpu : null, running ? runningVar.cpu : null, 0.1f, y.cpu);
                    f.cuda.batchNorm(x.gpu, gamma.gpu, beta.gpu, 1e-5f, mean.gpu, invStd.gpu,
                            running ? runningMean.gpu : null, running ? runningVar.gpu : null, 0.1f, y.gpu);
                    String shape = rows + "x" + c + " mean " + s[2] + (running ? "" : " no running")
                            + (inPlace ? " in place" : "");
                    double yError = assertClose("batchNorm y " + shape, f, y);
                    double meanError = assertClose("batchNorm mean " + shape, f, mean);
                    double invStdError = assertClose("batchNorm invStd " + shape, f, invStd);
                    double runningError = 0;
                    if (running) {
                        runningError = Math.max(assertClose("running mean " + shape, f, runningMean),
                                assertClose("running var " + shape, f, runningVar));
                    }
                    report("batchNorm " + shape + ": errors y " + yError + ", mean " + meanError + ", invStd "
                            + invStdError + ", running " + runningError);
                    if (variant == 1) {
                        float[] first = values(f.cuda, y.gpu);
                        float[] firstInvStd = values(f.cuda, invStd.gpu);
                        f.cuda.fill(y.gpu, Float.NaN);
                        f.cuda.batchNorm(x.gpu, gamma.gpu, beta.gpu, 1e-5f, mean.gpu, invStd.gpu, null, null, 0.1f,
                                y.gpu);
                        assertSameBits("batchNorm y", first, values(f.cuda, y.gpu));
                        assertSameBits("batchNorm invStd", firstInvStd, values(f.cuda, invStd.gpu));
                    }
                }
            }
            f.checkGuards();
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void batchNormInferenceAgrees(GpuTarget target) {
        try (Fixture f = new Fixture(target, 17)) {
            for (double[] s : NORM_SHAPES) {
                int rows = (int) s[0];
                int c = (int) s[1];
                for (boolean inPlace : new boolean[] {false, true}) {
                    Both x = f.gaussian(rows, c, s[2], 1);
                    Both gamma = f.gaussian(1, c, 1, 0.3);
                    Both beta = f.gaussian(1, c, 0, 1);
                    Both runningMean = f.gaussian(1, c, s[2], 0.1);
                    Both runningVar = f.uniform(1, c, 0.5, 1.5);
                    Both y = inPlace ? x : f.nan(rows, c);
                    f.cpu.batchNormInference(x.cpu, gamma.cpu, beta.cpu, runningMean.cpu, runningVar.cpu, 1e-5f,
                            y.cpu);
                    f.cuda.batchNormInference(x.gpu, gamma.gpu, beta.gpu, runningMean.gpu, runningVar.gpu, 1e-5f,
                            y.gpu);
                    double error = assertClose("batchNormInference " + rows + "x" + c, f, y);
                    report("batchNormInference " + rows + "x" + c + (inPlace ? " in place" : "") + ": error "
                            + error);
                }
            }
            f.checkGuards();
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void batchNormBackwardAgrees(GpuTarget target) {
        try (Fixture f = new Fixture(target, 18)) {
            for (double[] s : NORM_SHAPES) {
                int rows = (int) s[0];
                int c = (int) s[1];
                for (int variant = 0; variant < 3; variant++) {
                    boolean withDx = variant != 1;
                    boolean inPlace = variant == 2;
                    Both x = f.gaussian(rows, c, s[2], 1);
                    Both dy = f.gaussian(rows, c, 0.1, 1);
                    Both gamma = f.gaussian(1, c, 1, 0.3);
                    Both mean = f.gaussian(1, c, s[2], 0.05);
                    Both invStd = f.uniform(1, c, 0.5, 2);
                    Both dGamma = f.nan(1, c);
                    Both dBeta = f.nan(1, c);
                    Both dx = withDx ? (inPlace ? dy : f.nan(rows, c)) : null;
                    f.cpu.batchNormBackward(x.cpu, dy.cpu, gamma.cpu, mean.cpu, invStd.cpu, dGamma.cpu, dBeta.cpu,
                            withDx ? dx.cpu : null);
                    f.cuda.batchNormBackward(x.gpu, dy.gpu, gamma.gpu, mean.gpu, invStd.gpu, dGamma.gpu,
                            dBeta.gpu, withDx ? dx.gpu : null);
                    String shape = rows + "x" + c + " mean " + s[2] + (withDx ? "" : " no dx")
                            + (inPlace ? " in place" : "");
                    double dxError = withDx ? assertClose("batchNormBackward dx " + shape, f, dx) : 0;
                    double dGammaError = assertClose("batchNormBackward dGamma " + shape, f, dGamma);
                    double dBetaError = assertClose("batchNormBackward dBeta " + shape, f, dBeta);
                    report("batchNormBackward " + shape + ": errors dx " + dxError + ", dGamma " + dGammaError
                            + ", dBeta " + dBetaError);
                    if (variant == 0) {
                        float[] first = values(f.cuda, dx.gpu);
                        float[] firstGamma = values(f.cuda, dGamma.gpu);
                        f.cuda.fill(dx.gpu, Float.NaN);
                        f.cuda.batchNormBackward(x.gpu, dy.gpu, gamma.gpu, mean.gpu, invStd.gpu, dGamma.gpu,
                                dBeta.gpu, dx.gpu);
                        assertSameBits("batchNormBackward dx", first, values(f.cuda, dx.gpu));
                        assertSameBits("batchNormBackward dGamma", firstGamma, values(f.cuda, dGamma.gpu));
                    }
                }
            }
            f.checkGuards();
        }
    }
}
