package org.gridrun.engine.backend.cuda;

import static org.gridrun.engine.backend.TestTensors.gaussian;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.random.CounterRng;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The element-wise kernels (elementwise.cu through CudaElementwise) against the CPU backend, to the last bit.
 *
 * <p>Every operand is a view inside a buffer of its own, at an offset that sets its alignment: the same offset mod 4
 * for all operands takes the kernels' float4 path (after a scalar head), different ones the scalar path. The whole
 * buffer is compared, so a write outside the view fails too; outputs that an operation overwrites start as NaN, so an
 * element left unwritten fails. Each CUDA run is done twice from the same inputs and must give the same bits. The
 * kernels round every product and sum on its own (no FMA), as Java does, so floats are compared exactly: NaNs of any
 * payload count as equal (the GPU's arithmetic makes the canonical NaN where x86 propagates payloads), zeros by sign;
 * reluBackward, which only masks bits, is compared raw, payloads included.
 */
class CudaElementwiseAgreementTest {
    /** Shapes from one value to more than one block of 256 threads × 4 values, odd sizes, a row, a column. */
    private static final int[][] SHAPES = {{1, 1}, {1, 3}, {1, 4}, {1, 7}, {5, 1}, {3, 5}, {2, 8}, {37, 41}};

    /** Operand offsets: all aligned, all the same misalignment, same mod 4 but apart, all different, one different. */
    private static final int[][] OFFSETS = {{0, 0, 0, 0}, {1, 1, 1, 1}, {3, 7, 11, 15}, {2, 6, 2, 10}, {0, 1, 2, 3},
        {2, 2, 3, 2}};

    /** Values where float rules differ: signed zeros, subnormals, extremes, infinities, NaNs with payloads. */
    private static final float[] EDGES = {0f, -0f, 1f, -1f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL,
        -Float.MIN_NORMAL, 1e-40f, -3e-39f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.NaN, Float.intBitsToFloat(0x7fc00123), Float.intBitsToFloat(0xffc00000),
        Float.intBitsToFloat(0x7f800001), Float.intBitsToFloat(0xff812345), 0.5f, 3f, -2.5e-20f, 7e30f};

    /** One operand: a buffer of {@code values}, viewed as rows × cols from {@code offset}. */
    private record Operand(int offset, int rows, int cols, float[] values) {
    }

    /** An operation on the views of the operands, in order. */
    private interface Op {
        void run(Backend backend, Tensor[] views);
    }

    private enum Compare { CANONICAL, RAW }

    // ---- the harness

    /** The buffers of every operand after {@code op} ran on {@code backend} from their values. */
    private static float[][] runOn(Backend backend, Operand[] operands, Op op) {
        Tensor[] buffers = new Tensor[operands.length];
        Tensor[] views = new Tensor[operands.length];
        for (int i = 0; i < operands.length; i++) {
            Operand o = operands[i];
            buffers[i] = backend.allocate(1, o.values().length);
            backend.upload(o.values(), 0, buffers[i]);
            views[i] = buffers[i].view(o.offset(), o.rows(), o.cols());
        }
        op.run(backend, views);
        float[][] out = new float[operands.length][];
        for (int i = 0; i < operands.length; i++) {
            out[i] = new float[operands[i].values().length];
            backend.download(buffers[i], out[i], 0);
            buffers[i].close();
        }
        return out;
    }

    /** Runs {@code op} on the CPU and twice on {@code cuda}, and requires the same bits from all three. */
    private static float[][] agree(Backend cuda, String what, Compare compare, Operand[] operands, Op op) {
        float[][] expected;
        try (Backend cpu = new CpuBackend()) {
            expected = runOn(cpu, operands, op);
        }
        float[][] first = runOn(cuda, operands, op);
        float[][] second = runOn(cuda, operands, op);
        for (int i = 0; i < operands.length; i++) {
            String name = what + ", operand " + i + " (offset " + operands[i].offset() + ", " + operands[i].rows()
                    + "x" + operands[i].cols() + ")";
            assertSame(expected[i], first[i], compare, name);
            assertSame(first[i], second[i], Compare.RAW, name + ", second run");
        }
        return first;
    }

    private static void assertSame(float[] expected, float[] actual, Compare compare, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            boolean same = compare == Compare.RAW
                    ? Float.floatToRawIntBits(expected[i]) == Float.floatToRawIntBits(actual[i])
                    : Float.floatToIntBits(expected[i]) == Float.floatToIntBits(actual[i]);
            if (!same) {
                fail(what + ": element " + i + " is " + actual[i] + " (0x"
                        + Integer.toHexString(Float.floatToRawIntBits(actual[i])) + "), the CPU's " + expected[i]
                        + " (0x" + Integer.toHexString(Float.floatToRawIntBits(expected[i])) + ")");
            }
        }
    }

    /** An operand whose view holds {@code view} and whose surroundings are random (3 to 5 values after it). */
    private static Operand operand(Random rng, int offset, int rows, int cols, float[] view) {
        float[] values = gaussian(rng, offset + view.length + 3 + rng.nextInt(3));
        System.arraycopy(view, 0, values, offset, view.length);
        return new Operand(offset, rows, cols, values);
    }

    /** Gaussian values with a fraction of them replaced by edge values. */
    private static float[] withEdges(Random rng, int n, double fraction) {
        float[] v = gaussian(rng, n);
        for (int i = 0; i < n; i++) {
            if (rng.nextDouble() < fraction) {
                v[i] = EDGES[rng.nextInt(EDGES.length)];
            }
        }
        return v;
    }

    private static float[] nans(int n) {
        float[] v = new float[n];
        Arrays.fill(v, Float.NaN);
        return v;
    }

    // ---- the tests

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void fillUniformGivesTheCounterRngSequence(GpuTarget target) {
        Random rng = new Random(11);
        try (Backend cuda = target.backend()) {
            long[][] seedStreams = {{0, 0}, {42, 3}, {-7, 1L << 40}, {Long.MIN_VALUE, -1}};
            float[][] ranges = {{0f, 1f}, {-0.1f, 0.1f}, {-3.3f, 17f}, {1e-3f, 1e-3f}};
            int c = 0;
            for (int[] shape : SHAPES) {
                for (int offset = 0; offset < 4; offset++, c++) {
                    long seed = seedStreams[c % 4][0];
                    long stream = seedStreams[c % 4][1];
                    float low = ranges[c / 4 % 4][0];
                    float high = ranges[c / 4 % 4][1];
                    int n = shape[0] * shape[1];
                    Operand[] x = {operand(rng, offset, shape[0], shape[1], nans(n))};
                    float[][] got = agree(cuda, "fillUniform [" + low + ", " + high + ") seed " + seed + " stream "
                            + stream, Compare.RAW, x, (b, t) -> b.fillUniform(t[0], low, high, seed, stream));
                    // And straight from the generator, in case the CPU backend changed.
                    CounterRng draws = new CounterRng(seed, stream);
                    for (int i = 0; i < n; i++) {
                        float want = low + (high - low) * draws.nextFloat();
                        assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(got[0][offset + i]),
                                "draw " + i);
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void scaleAxpyAndAddRowVectorAreExact(GpuTarget target) {
        Random rng = new Random(12);
        float[] alphas = {0.37f, -1.5f, 0f, 3e-20f, Float.NaN, 1.0000001f};
        try (Backend cuda = target.backend()) {
            for (int s = 0; s < SHAPES.length; s++) {
                int rows = SHAPES[s][0];
                int cols = SHAPES[s][1];
                int n = rows * cols;
                for (int k = 0; k < OFFSETS.length; k++) {
                    int[] off = OFFSETS[k];
                    float alpha = alphas[(s + k) % alphas.length];
                    Operand[] one = {operand(rng, off[0], rows, cols, withEdges(rng, n, 0.1))};
                    agree(cuda, "scale by " + alpha, Compare.CANONICAL, one, (b, t) -> b.scale(alpha, t[0]));
                    Operand[] two = {operand(rng, off[0], rows, cols, withEdges(rng, n, 0.1)),
                        operand(rng, off[1], rows, cols, withEdges(rng, n, 0.1))};
                    agree(cuda, "axpy by " + alpha, Compare.CANONICAL, two, (b, t) -> b.axpy(alpha, t[0], t[1]));
                    Operand[] rowAndX = {operand(rng, off[2], 1, cols, withEdges(rng, cols, 0.1)),
                        operand(rng, off[3], rows, cols, withEdges(rng, n, 0.1))};
                    agree(cuda, "addRowVector", Compare.CANONICAL, rowAndX, (b, t) -> b.addRowVector(t[0], t[1]));
                }
            }
            // axpy of a tensor into itself: y ← y + alpha·y.
            Operand[] same = {operand(rng, 1, 7, 9, withEdges(rng, 63, 0.1))};
            agree(cuda, "axpy into itself", Compare.CANONICAL, same, (b, t) -> b.axpy(0.75f, t[0], t[0]));
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void reluIsJavasMathMaxWithZero(GpuTarget target) {
        Random rng = new Random(13);
        try (Backend cuda = target.backend()) {
            for (int[] shape : SHAPES) {
                int n = shape[0] * shape[1];
                for (int[] off : OFFSETS) {
                    Operand[] xy = {operand(rng, off[0], shape[0], shape[1], withEdges(rng, n, 0.3)),
                        operand(rng, off[1], shape[0], shape[1], nans(n))};
                    agree(cuda, "relu", Compare.CANONICAL, xy, (b, t) -> b.relu(t[0], t[1]));
                }
                Operand[] inPlace = {operand(rng, 3, shape[0], shape[1], withEdges(rng, n, 0.3))};
                agree(cuda, "relu in place", Compare.CANONICAL, inPlace, (b, t) -> b.relu(t[0], t[0]));
            }
            // Every edge value in each position of a vector group; -0 and NaN are where fmaxf would differ.
            float[] edges = new float[EDGES.length * 4];
            for (int i = 0; i < edges.length; i++) {
                edges[i] = EDGES[(i / 4 + i % 4 * 5) % EDGES.length];
            }
            float[][] got = agree(cuda, "relu of edge values", Compare.CANONICAL,
                    new Operand[] {operand(rng, 0, 1, edges.length, edges), operand(rng, 0, 1, edges.length,
                        nans(edges.length))}, (b, t) -> b.relu(t[0], t[1]));
            for (int i = 0; i < edges.length; i++) {
                float y = got[1][i];
                float x = edges[i];
                assertTrue(Float.isNaN(x) ? Float.isNaN(y) : Float.floatToIntBits(y)
                        == Float.floatToIntBits(x > 0 ? x : 0f), "relu(" + x + ") = " + y);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void reluBackwardMasksTheGradientBitForBit(GpuTarget target) {
        Random rng = new Random(14);
        try (Backend cuda = target.backend()) {
            // Every pair of edge values (y, grad): NaN y, -0 y, subnormal y, infinite y, NaN and -0 gradients.
            int n = EDGES.length * EDGES.length;
            float[] y = new float[n];
            float[] g = new float[n];
            for (int i = 0; i < n; i++) {
                y[i] = EDGES[i / EDGES.length];
                g[i] = EDGES[i % EDGES.length];
            }
            for (int[] off : OFFSETS) {
                Operand[] yg = {operand(rng, off[0], 1, n, y), operand(rng, off[1], 1, n, g)};
                float[][] got = agree(cuda, "reluBackward of edge values", Compare.RAW, yg,
                        (b, t) -> b.reluBackward(t[0], t[1]));
                for (int i = 0; i < n; i++) {
                    boolean passes = y[i] > 0;
                    int want = passes ? Float.floatToRawIntBits(g[i]) : 0;
                    assertEquals(want, Float.floatToRawIntBits(got[1][off[1] + i]), "y " + y[i] + ", grad " + g[i]);
                }
            }
            for (int[] shape : SHAPES) {
                int size = shape[0] * shape[1];
                for (int[] off : OFFSETS) {
                    Operand[] yg = {operand(rng, off[0], shape[0], shape[1], withEdges(rng, size, 0.2)),
                        operand(rng, off[1], shape[0], shape[1], withEdges(rng, size, 0.2))};
                    agree(cuda, "reluBackward", Compare.RAW, yg, (b, t) -> b.reluBackward(t[0], t[1]));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void dropoutDrawsTheCpuMask(GpuTarget target) {
        Random rng = new Random(15);
        float[] ps = {0f, 0.3f, 0.5f, 0.9f, 1e-30f, 0.99999994f};
        int[][] shapes = {{1, 1}, {1, 15}, {3, 5}, {5, 3}, {4, 12}, {9, 1}, {33, 45}};
        try (Backend cuda = target.backend()) {
            int c = 0;
            for (int[] shape : shapes) {
                int n = shape[0] * shape[1];
                for (int channels : new int[] {0, 1, 3, 5}) {
                    if (channels > 0 && shape[1] % channels != 0) {
                        continue;
                    }
                    for (int k = 0; k < 3; k++, c++) {
                        int[] off = OFFSETS[c % OFFSETS.length];
                        float p = ps[c % ps.length];
                        long seed = 1000 + c;
                        long stream = c % 3 - 1;
                        String what = "dropout p " + p + " channels " + channels + " seed " + seed;
                        Operand[] xy = {operand(rng, off[0], shape[0], shape[1], withEdges(rng, n, 0.05)),
                            operand(rng, off[1], shape[0], shape[1], nans(n))};
                        agree(cuda, what, Compare.CANONICAL, xy, (b, t) -> b.dropout(t[0], p, channels, seed,
                                stream, t[1]));
                        Operand[] inPlace = {operand(rng, off[2], shape[0], shape[1], withEdges(rng, n, 0.05))};
                        agree(cuda, what + " in place", Compare.CANONICAL, inPlace, (b, t) -> b.dropout(t[0], p,
                                channels, seed, stream, t[0]));
                    }
                }
            }
            // The mask itself, on ones: about half dropped at p = 0.5, whole channels together.
            int rows = 40;
            int cols = 60;
            int channels = 3;
            float[] ones = new float[rows * cols];
            Arrays.fill(ones, 1f);
            float[][] got = agree(cuda, "dropout of ones", Compare.RAW, new Operand[] {operand(rng, 1, rows, cols,
                ones), operand(rng, 1, rows, cols, nans(ones.length))}, (b, t) -> b.dropout(t[0], 0.5f, channels,
                    9, 2, t[1]));
            int dropped = 0;
            for (int r = 0; r < rows; r++) {
                for (int j = 0; j < cols; j++) {
                    float y = got[1][1 + r * cols + j];
                    assertTrue(y == 0f || y == 2f, "kept values are scaled by 1/(1 - p): " + y);
                    assertEquals(y, got[1][1 + r * cols + j % channels], "the channel of (" + r + ", " + j + ")");
                    dropped += y == 0f ? 1 : 0;
                }
            }
            assertTrue(dropped > 0.4 * rows * cols && dropped < 0.6 * rows * cols, dropped + " dropped");
        }
    }

    @Test
    void dropThresholdDecidesAsTheCpusDoubleComparison() {
        Random rng = new Random(16);
        List<Float> ps = new ArrayList<>(List.of(0f, Float.MIN_VALUE, 1e-30f, 0.5f, 0.25f, 0.1f, 0.99999994f));
        for (int i = 0; i < 200; i++) {
            ps.add(rng.nextFloat());
            ps.add((float) Math.pow(2, -rng.nextInt(60)) * rng.nextFloat());
        }
        for (float p : ps) {
            long threshold = CudaElementwise.dropThreshold(p);
            long near = (long) ((double) p * 0x1.0p53);
            for (long u : new long[] {0, near - 1, near, near + 1, threshold - 1, threshold, (1L << 53) - 1,
                rng.nextLong() >>> 11}) {
                if (u < 0 || u >= 1L << 53) {
                    continue;
                }
                boolean cpu = u * 0x1.0p-53 < p;
                assertEquals(cpu, u < threshold, "p " + p + ", u " + u);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void sgdStepsAreExact(GpuTarget target) {
        Random rng = new Random(17);
        float[][] settings = {{0f, 0f, 0f}, {0f, 0f, 5e-4f}, {0.9f, 0f, 0f}, {0.9f, 0f, 1e-4f}, {0.9f, 1f, 0f},
            {0.95f, 1f, 5e-4f}};
        try (Backend cuda = target.backend()) {
            int c = 0;
            for (int[] shape : SHAPES) {
                int n = shape[0] * shape[1];
                for (float[] setting : settings) {
                    int[] off = OFFSETS[c++ % OFFSETS.length];
                    float momentum = setting[0];
                    boolean nesterov = setting[1] != 0f;
                    float wd = setting[2];
                    float lr = 0.05f + c * 0.01f;
                    Operand[] pgv = {operand(rng, off[0], shape[0], shape[1], withEdges(rng, n, 0.03)),
                        operand(rng, off[1], shape[0], shape[1], withEdges(rng, n, 0.03)),
                        operand(rng, off[2], shape[0], shape[1], withEdges(rng, n, 0.03))};
                    // Three steps, so that the velocity carries over.
                    agree(cuda, "sgd lr " + lr + " momentum " + momentum + " nesterov " + nesterov + " wd " + wd,
                            Compare.CANONICAL, pgv, (b, t) -> {
                                for (int step = 0; step < 3; step++) {
                                    b.sgdUpdate(t[0], t[1], momentum == 0f ? null : t[2], lr, momentum, nesterov,
                                            wd);
                                }
                            });
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void adamStepsAreExact(GpuTarget target) {
        Random rng = new Random(18);
        long[] steps = {1, 2, 10, 1000};
        try (Backend cuda = target.backend()) {
            int c = 0;
            for (int[] shape : SHAPES) {
                int n = shape[0] * shape[1];
                for (float wd : new float[] {0f, 0.01f}) {
                    int[] off = OFFSETS[c % OFFSETS.length];
                    long t0 = steps[c % steps.length];
                    c++;
                    float[] m = gaussian(rng, n);
                    float[] v = new float[n];
                    for (int i = 0; i < n; i++) {
                        v[i] = i % 5 == 0 ? 0f : m[i] * m[i] + (float) rng.nextDouble();
                    }
                    Operand[] pgmv = {operand(rng, off[0], shape[0], shape[1], withEdges(rng, n, 0.03)),
                        operand(rng, off[1], shape[0], shape[1], withEdges(rng, n, 0.03)),
                        operand(rng, off[2], shape[0], shape[1], m), operand(rng, off[3], shape[0], shape[1], v)};
                    agree(cuda, "adam from step " + t0 + " wd " + wd, Compare.CANONICAL, pgmv, (b, t) -> {
                        for (long step = t0; step < t0 + 3; step++) {
                            b.adamUpdate(t[0], t[1], t[2], t[3], 1e-3f, 0.9f, 0.999f, 1e-8f, wd, step);
                        }
                    });
                }
            }
        }
    }
}
