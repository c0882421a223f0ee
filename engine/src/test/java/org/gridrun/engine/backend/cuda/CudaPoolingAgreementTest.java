package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.Random;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.ConvGeometry;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The CUDA pooling and shortcut kernels ({@code pool.cu} through {@link CudaPooling}) against the CPU backend.
 *
 * <p>Every tensor is a view at an odd offset inside a larger one whose margins hold a sentinel that must survive;
 * outputs are poisoned with NaN first, so an unwritten element fails. Max pooling (both passes), the mean-pool
 * backward pass and the shortcut (both passes) follow the CPU's operation order and are compared bit for bit (NaN
 * against NaN, +0 against −0 told apart); the mean pool splits its sums differently and is compared within 1e-5 of
 * the largest magnitude. Every CUDA call runs twice and must give the same bits.
 */
class CudaPoolingAgreementTest {
    private static final float SENTINEL = 1234.5f;
    private static final int MARGIN = 5;

    /** images, height, width, channels, kernel height, kernel width, stride, padding. */
    private static final int[][] POOLS = {
            {2, 5, 7, 3, 2, 2, 2, 0},     // odd sizes: the last row and column belong to no window
            {3, 7, 5, 5, 3, 3, 2, 0},     // overlapping 3×3 windows, stride 2
            {1, 4, 4, 1, 1, 1, 1, 0},     // 1×1 windows, one channel
            {2, 6, 9, 5, 2, 3, 1, 0},     // non-square window, stride 1: every inner input in six windows
            {1, 1, 8, 3, 1, 2, 2, 0},     // one image row
            {1, 6, 1, 3, 2, 1, 1, 0},     // one image column
            {2, 9, 9, 7, 3, 3, 3, 0},     // windows that tile the image
            {1, 3, 3, 2, 3, 3, 1, 0},     // one window covering the image
            {4, 19, 17, 37, 3, 3, 2, 0},  // more than one block of inputs and of outputs
            {2, 8, 8, 3, 3, 3, 2, 1},     // the ResNet stem's pooling: 3×3, stride 2, padding 1
            {3, 7, 5, 5, 3, 3, 2, 1},     // the same on odd sizes: the last window reaches into the padding
            {2, 6, 9, 5, 2, 3, 1, 1},     // non-square window, padding on every side, stride 1
            {1, 5, 4, 2, 2, 2, 2, 1},     // 2×2 windows shifted by the padding: corner windows hold one input
            {1, 1, 1, 2, 3, 3, 1, 1},     // a 1×1 image: the window's only input is in its middle
            {1, 2, 6, 3, 3, 2, 3, 1},     // stride above the kernel: some inputs belong to no window
            {2, 11, 11, 4, 5, 5, 3, 2},   // padding 2
            {4, 19, 17, 37, 3, 3, 2, 1},  // more than one block, padded
    };

    /** rows, positions, channels. */
    private static final int[][] MEANS = {
            {1, 1, 1}, {3, 7, 5}, {2, 64, 3}, {5, 1, 40}, {1, 100, 70}, {67, 9, 33}, {2, 13, 1},
    };

    /** images, height, width, channels, stride, out channels, before. */
    private static final int[][] SHORTCUTS = {
            {2, 8, 8, 3, 2, 8, 2},
            {3, 7, 5, 5, 2, 16, 0},
            {1, 5, 5, 4, 1, 4, 0},     // stride 1, channels unchanged: a copy
            {2, 9, 6, 3, 3, 7, 4},     // channels at the end of the output's
            {1, 1, 1, 1, 1, 1, 0},
            {1, 1, 7, 2, 2, 5, 3},
            {2, 6, 1, 3, 4, 3, 0},     // one column, stride past the image
            {3, 17, 16, 16, 2, 32, 8}, // more than one block
    };

    /** How a test fills its inputs. */
    private enum Values {
        /** Standard normal values. */
        GAUSSIAN,
        /** Values from {−1, −0, 0, 1, 2}: ties in most windows, and signed zeros. */
        TIES,
        /** Standard normal values with about one in eight NaN. */
        NANS,
        /** Values from −5 to −1: a padded zero would win every padded window if the padding were read. */
        NEGATIVE
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void maxPoolMatchesCpu(GpuTarget target) {
        Random rng = new Random(11);
        int checked = 0;
        try (Backend cuda = target.backend(); Backend cpu = new CpuBackend()) {
            for (int[] p : POOLS) {
                ConvGeometry g = new ConvGeometry(p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
                int n = p[0];
                for (Values kind : Values.values()) {
                    float[] x = values(rng, kind, n * g.inputSize());
                    String what = "maxPool " + Arrays.toString(p) + " " + kind;
                    int outCols = g.outPositions() * g.channels();
                    float[] want = run(cpu, (b, in, out) -> b.maxPool(in[0], g, out), n, outCols, x, n,
                            g.inputSize());
                    float[] got = runTwice(cuda, what, (b, in, out) -> b.maxPool(in[0], g, out), n, outCols, x, n,
                            g.inputSize());
                    assertSameBits(what, want, got);
                    checked += got.length;
                }
            }
        }
        System.out.println(target + ": maxPool agrees bit for bit on " + checked + " values");
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void maxPoolBackwardMatchesCpu(GpuTarget target) {
        Random rng = new Random(12);
        int checked = 0;
        int nonzero = 0;
        try (Backend cuda = target.backend(); Backend cpu = new CpuBackend()) {
            for (int[] p : POOLS) {
                ConvGeometry g = new ConvGeometry(p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
                int n = p[0];
                int outCols = g.outPositions() * g.channels();
                for (Values kind : Values.values()) {
                    float[] x = values(rng, kind, n * g.inputSize());
                    float[] y = new float[n * outCols];
                    float[] dy = values(rng, Values.GAUSSIAN, n * outCols);
                    String what = "maxPoolBackward " + Arrays.toString(p) + " " + kind;
                    Op op = (b, in, out) -> b.maxPoolBackward(in[0], in[1], in[2], g, out);
                    float[] want = run(cpu, op, n, g.inputSize(), x, n, g.inputSize(), y, n, outCols, dy, n,
                            outCols);
                    float[] got = runTwice(cuda, what, op, n, g.inputSize(), x, n, g.inputSize(), y, n, outCols,
                            dy, n, outCols);
                    assertSameBits(what, want, got);
                    checked += got.length;
                    for (float v : got) {
                        nonzero += v != 0 ? 1 : 0;
                    }
                }
            }
        }
        System.out.println(target + ": maxPoolBackward agrees bit for bit on " + checked + " values (" + nonzero
                + " nonzero)");
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void meanPoolMatchesCpu(GpuTarget target) {
        Random rng = new Random(13);
        int checked = 0;
        double worst = 0;
        try (Backend cuda = target.backend(); Backend cpu = new CpuBackend()) {
            for (int[] m : MEANS) {
                int rows = m[0];
                int positions = m[1];
                int channels = m[2];
                for (Values kind : new Values[] {Values.GAUSSIAN, Values.TIES}) {
                    float[] x = values(rng, kind, rows * positions * channels);
                    String what = "meanPool " + Arrays.toString(m) + " " + kind;
                    Op op = (b, in, out) -> b.meanPool(in[0], channels, out);
                    float[] want = run(cpu, op, rows, channels, x, rows, positions * channels);
                    float[] got = runTwice(cuda, what, op, rows, channels, x, rows, positions * channels);
                    worst = Math.max(worst, assertClose(what, want, got, 1e-5));
                    checked += got.length;
                }
            }
        }
        System.out.println(target + ": meanPool agrees on " + checked + " values, worst error " + worst
                + " of the largest magnitude");
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void meanPoolBackwardMatchesCpu(GpuTarget target) {
        Random rng = new Random(14);
        int checked = 0;
        try (Backend cuda = target.backend(); Backend cpu = new CpuBackend()) {
            for (int[] m : MEANS) {
                int rows = m[0];
                int positions = m[1];
                int channels = m[2];
                float[] dy = values(rng, Values.GAUSSIAN, rows * channels);
                String what = "meanPoolBackward " + Arrays.toString(m);
                Op op = (b, in, out) -> b.meanPoolBackward(in[0], channels, out);
                float[] want = run(cpu, op, rows, positions * channels, dy, rows, channels);
                float[] got = runTwice(cuda, what, op, rows, positions * channels, dy, rows, channels);
                assertSameBits(what, want, got);
                checked += got.length;
            }
        }
        System.out.println(target + ": meanPoolBackward agrees bit for bit on " + checked + " values");
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void shortcutMatchesCpu(GpuTarget target) {
        Random rng = new Random(15);
        int checked = 0;
        try (Backend cuda = target.backend(); Backend cpu = new CpuBackend()) {
            for (int[] s : SHORTCUTS) {
                int n = s[0];
                ConvGeometry g = ConvGeometry.square(s[1], s[2], s[3], 1, s[4], 0);
                int outChannels = s[5];
                int before = s[6];
                int outCols = ((s[1] - 1) / s[4] + 1) * ((s[2] - 1) / s[4] + 1) * outChannels;
                float[] x = values(rng, Values.GAUSSIAN, n * g.inputSize());
                String what = "shortcut " + Arrays.toString(s);
                Op op = (b, in, out) -> b.shortcut(in[0], g, outChannels, before, out);
                float[] want = run(cpu, op, n, outCols, x, n, g.inputSize());
                float[] got = runTwice(cuda, what, op, n, outCols, x, n, g.inputSize());
                assertSameBits(what, want, got);
                checked += got.length;

                float[] dy = values(rng, Values.GAUSSIAN, n * outCols);
                String back = "shortcutBackward " + Arrays.toString(s);
                Op adjoint = (b, in, out) -> b.shortcutBackward(in[0], g, outChannels, before, out);
                float[] wantDx = run(cpu, adjoint, n, g.inputSize(), dy, n, outCols);
                float[] gotDx = runTwice(cuda, back, adjoint, n, g.inputSize(), dy, n, outCols);
                assertSameBits(back, wantDx, gotDx);
                checked += gotDx.length;
            }
        }
        System.out.println(target + ": shortcut and its backward pass agree bit for bit on " + checked + " values");
    }

    /** The checks themselves can fail: a wrong value, a NaN left unwritten and a changed sign of zero are caught. */
    @Test
    void comparisonsCatchDifferences() {
        float[] want = {1f, 0f, Float.NaN};
        mustFail(() -> assertSameBits("value", want, new float[] {1.5f, 0f, Float.NaN}));
        mustFail(() -> assertSameBits("zero", want, new float[] {1f, -0f, Float.NaN}));
        mustFail(() -> assertSameBits("nan", want, new float[] {1f, 0f, 3f}));
        mustFail(() -> assertClose("close", new float[] {1f, 2f}, new float[] {1f, Float.NaN}, 1e-5));
        mustFail(() -> assertClose("close", new float[] {1f, 2f}, new float[] {1f, 2.001f}, 1e-5));
        assertSameBits("same", want, new float[] {1f, 0f, Float.NaN});
    }

    /** One backend operation on input views {@code in} writing the output view {@code out}. */
    private interface Op {
        void run(Backend b, Tensor[] in, Tensor out);
    }

    /**
     * Runs {@code op} on {@code b}: inputs given as (values, rows, cols) triples are uploaded into views at odd
     * offsets, the {@code outRows × outCols} output view is poisoned with NaN; returns the output after checking
     * that no margin changed.
     */
    private static float[] run(Backend b, Op op, int outRows, int outCols, Object... inputs) {
        int count = inputs.length / 3;
        Tensor[] parents = new Tensor[count + 1];
        Tensor[] views = new Tensor[count];
        try {
            for (int i = 0; i < count; i++) {
                int rows = (Integer) inputs[3 * i + 1];
                int cols = (Integer) inputs[3 * i + 2];
                parents[i] = b.allocate(1, 2 * MARGIN + 2 * i + 1 + rows * cols);
                views[i] = placed(b, parents[i], MARGIN + 2 * i + 1, rows, cols, (float[]) inputs[3 * i]);
            }
            parents[count] = b.allocate(1, 2 * MARGIN + 3 + outRows * outCols);
            Tensor out = placed(b, parents[count], MARGIN + 3, outRows, outCols, null);
            op.run(b, views, out);
            for (int i = 0; i < count; i++) {
                margins(b, parents[i], MARGIN + 2 * i + 1, views[i].size(), "input " + i);
            }
            return margins(b, parents[count], MARGIN + 3, out.size(), "output");
        } finally {
            for (Tensor t : parents) {
                if (t != null) {
                    t.close();
                }
            }
        }
    }

    /** {@link #run} twice on {@code b}, failing unless both give the same bits. */
    private static float[] runTwice(Backend b, String what, Op op, int outRows, int outCols, Object... inputs) {
        float[] first = run(b, op, outRows, outCols, inputs);
        float[] second = run(b, op, outRows, outCols, inputs);
        for (int i = 0; i < first.length; i++) {
            if (Float.floatToRawIntBits(first[i]) != Float.floatToRawIntBits(second[i])) {
                fail(what + ": not deterministic at " + i + ": " + first[i] + " then " + second[i]);
            }
        }
        return first;
    }

    /** A view of {@code parent} at {@code lead} holding {@code values} (NaN when null), the rest the sentinel. */
    private static Tensor placed(Backend b, Tensor parent, int lead, int rows, int cols, float[] values) {
        float[] all = new float[parent.size()];
        Arrays.fill(all, SENTINEL);
        if (values == null) {
            Arrays.fill(all, lead, lead + rows * cols, Float.NaN);
        } else {
            System.arraycopy(values, 0, all, lead, rows * cols);
        }
        b.upload(all, 0, parent);
        return parent.view(lead, rows, cols);
    }

    /** The {@code size} values at {@code lead} of {@code parent}, after checking the rest still holds the sentinel. */
    private static float[] margins(Backend b, Tensor parent, int lead, int size, String what) {
        float[] all = new float[parent.size()];
        b.download(parent, all, 0);
        for (int i = 0; i < all.length; i++) {
            if ((i < lead || i >= lead + size) && all[i] != SENTINEL) {
                fail(what + ": written outside its view at " + (i - lead) + ": " + all[i]);
            }
        }
        return Arrays.copyOfRange(all, lead, lead + size);
    }

    private static float[] values(Random rng, Values kind, int n) {
        float[] ties = {-1f, -0f, 0f, 1f, 2f};
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = switch (kind) {
                case GAUSSIAN -> (float) rng.nextGaussian();
                case TIES -> ties[rng.nextInt(ties.length)];
                case NANS -> rng.nextInt(8) == 0 ? Float.NaN : (float) rng.nextGaussian();
                case NEGATIVE -> -1 - rng.nextInt(5);
            };
        }
        return v;
    }

    /** Equal bits, except that any NaN matches any NaN. */
    private static void assertSameBits(String what, float[] want, float[] got) {
        assertEquals(want.length, got.length, what);
        for (int i = 0; i < want.length; i++) {
            boolean same = Float.isNaN(want[i]) ? Float.isNaN(got[i])
                    : Float.floatToRawIntBits(want[i]) == Float.floatToRawIntBits(got[i]);
            if (!same) {
                fail(what + ": at " + i + " expected " + want[i] + ", found " + got[i]);
            }
        }
    }

    /** Within {@code tolerance} of the largest expected magnitude, NaN nowhere; returns the worst relative error. */
    private static double assertClose(String what, float[] want, float[] got, double tolerance) {
        assertEquals(want.length, got.length, what);
        double scale = Double.MIN_NORMAL;
        for (float w : want) {
            assertTrue(Float.isFinite(w), what + ": the reference is not finite");
            scale = Math.max(scale, Math.abs(w));
        }
        double worst = 0;
        for (int i = 0; i < want.length; i++) {
            double error = Math.abs((double) want[i] - got[i]) / scale;
            if (!(error <= tolerance)) {
                fail(what + ": at " + i + " expected " + want[i] + ", found " + got[i]);
            }
            worst = Math.max(worst, error);
        }
        return worst;
    }

    private static void mustFail(Runnable check) {
        try {
            check.run();
        } catch (AssertionError expected) {
            return;
        }
        fail("the check passed on different values");
    }
}
