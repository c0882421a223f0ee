package org.gridrun.engine.backend.cuda;

import static org.gridrun.engine.backend.TestTensors.values;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.ConvGeometry;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The CUDA matrix products and convolutions ({@link CudaBlas}: gemm.cu, conv.cu) agree with the CPU backend.
 *
 * <p>Every operand is a view at an odd offset inside a larger tensor whose other elements are NaN, so a read outside
 * the operand shows up as NaN in the result and a write outside it as a changed guard element; outputs are
 * NaN-poisoned before the operation, so an element left unwritten fails too. Each operation runs twice and must give
 * the same bits. Shapes are odd, single rows and columns, tiles and k splits partly filled, and at least one in every
 * operation larger than a tile in each dimension; results are within 1e-4 of the CPU's relative to its largest
 * magnitude.
 */
class CudaBlasAgreementTest {
    private static final float TOLERANCE = 1e-4f;

    /** Two backends holding the same values: the one checked and the CPU reference. */
    private record Pair(Backend cuda, Backend cpu) {
    }

    /** The same operand on both backends: a view inside a NaN-filled tensor on each. */
    private record Operand(Tensor cuda, Tensor cpu, Tensor cudaWhole, int offset) {
    }

    private static Operand operand(Pair p, int rows, int cols, float[] values, int offset) {
        int size = rows * cols;
        Tensor[] views = new Tensor[2];
        Tensor cudaWhole = null;
        Backend[] backends = {p.cuda(), p.cpu()};
        for (int i = 0; i < 2; i++) {
            Tensor whole = backends[i].allocate(1, offset + size + 5);
            backends[i].fill(whole, Float.NaN);
            views[i] = whole.view(offset, rows, cols);
            if (values != null && size > 0) {
                backends[i].upload(values, 0, views[i]);
            }
            if (i == 0) {
                cudaWhole = whole;
            }
        }
        return new Operand(views[0], views[1], cudaWhole, offset);
    }

    private static Operand random(Pair p, Random rng, int rows, int cols) {
        float[] v = new float[rows * cols];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) rng.nextGaussian();
        }
        return operand(p, rows, cols, v, 1 + rng.nextInt(7));
    }

    /**
     * Runs {@code op} on both backends, twice on CUDA (the output poisoned with NaN before each run unless
     * {@code keep}), and checks agreement, determinism and that nothing around the output was written.
     */
    private static void check(String what, Pair p, Operand out, boolean keep, Consumer<Backend> op) {
        float[] before = keep ? values(p.cpu(), out.cpu()) : null;
        Consumer<Backend> reset = be -> {
            if (keep) {
                be.upload(before, 0, side(be, p, out));
            } else {
                be.fill(side(be, p, out), Float.NaN);
            }
        };
        int[][] bits = new int[2][];
        for (int run = 0; run < 2; run++) {
            reset.accept(p.cuda());
            op.accept(p.cuda());
            float[] got = values(p.cuda(), out.cuda());
            bits[run] = new int[got.length];
            for (int i = 0; i < got.length; i++) {
                bits[run][i] = Float.floatToRawIntBits(got[i]);
            }
        }
        reset.accept(p.cpu());
        op.accept(p.cpu());
        float[] want = values(p.cpu(), out.cpu());
        assertArrayEquals(bits[0], bits[1], what + ": two runs differ");
        float largest = 0;
        for (float w : want) {
            assertTrue(Float.isFinite(w), what + ": the CPU reference is not finite");
            largest = Math.max(largest, Math.abs(w));
        }
        float tolerance = TOLERANCE * Math.max(largest, 1e-30f);
        for (int i = 0; i < want.length; i++) {
            float got = Float.intBitsToFloat(bits[0][i]);
            if (!(Math.abs(got - want[i]) <= tolerance)) {
                fail(what + ": element " + i + " (row " + i / Math.max(1, out.cpu().cols()) + ", col "
                        + i % Math.max(1, out.cpu().cols()) + ") is " + got + ", the CPU's " + want[i]
                        + " (tolerance " + tolerance + ")");
            }
        }
        float[] whole = values(p.cuda(), out.cudaWhole());
        for (int i = 0; i < whole.length; i++) {
            if (i < out.offset() || i >= out.offset() + want.length) {
                assertTrue(Float.isNaN(whole[i]), what + ": wrote guard element " + i + " outside the output");
            }
        }
    }

    private static void withBackends(GpuTarget target, Consumer<Pair> body) {
        try (Backend cuda = target.backend(); Backend cpu = new CpuBackend()) {
            body.accept(new Pair(cuda, cpu));
        }
    }

    /**
     * {m, n, k}: single rows and columns, partial tiles, several tiles each way, k empty, short and split, and one
     * large both ways with partial tiles (CudaBlas.LARGE's 8×8 a thread).
     */
    private static final int[][] GEMM_SHAPES = {
            {1, 1, 1}, {1, 37, 5}, {37, 1, 9}, {3, 5, 0}, {67, 65, 33}, {5, 300, 17}, {300, 7, 20}, {20, 30, 700},
            {2, 270, 260}, {130, 70, 19}, {128, 256, 784}, {1537, 1409, 21},
    };

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void gemmAgreesInAllTransposes(GpuTarget target) {
        withBackends(target, p -> {
            Random rng = new Random(11);
            Coverage coverage = new Coverage(true);
            for (int[] s : GEMM_SHAPES) {
                coverage.add(s[0], s[1], s[2]);
                for (int ab = 0; ab < 4; ab++) {
                    boolean ta = (ab & 2) != 0;
                    boolean tb = (ab & 1) != 0;
                    int m = s[0];
                    int n = s[1];
                    int k = s[2];
                    Operand a = ta ? random(p, rng, k, m) : random(p, rng, m, k);
                    Operand b = tb ? random(p, rng, n, k) : random(p, rng, k, n);
                    Operand c = random(p, rng, m, n);
                    String what = "gemm " + (ta ? 't' : 'n') + (tb ? 't' : 'n') + " " + m + "x" + n + "x" + k;
                    check(what + " beta 0", p, c, false,
                            be -> be.gemm(ta, tb, 1f, side(be, p, a), side(be, p, b), 0f, side(be, p, c)));
                    check(what + " alpha 0.75 beta -1.5", p, c, true,
                            be -> be.gemm(ta, tb, 0.75f, side(be, p, a), side(be, p, b), -1.5f, side(be, p, c)));
                }
            }
            coverage.assertComplete("gemm");
        });
    }

    /**
     * The tile shapes and k splits a list of products runs with: every shape, one split and several. Plain products
     * choose among CudaBlas.productShape's shapes, convolutions among CudaBlas.shape's.
     */
    private static final class Coverage {
        private final Set<String> shapes = new TreeSet<>();
        private final Set<Boolean> split = new TreeSet<>();
        private final boolean products;

        Coverage(boolean products) {
            this.products = products;
        }

        void add(int m, int n, int k) {
            int[] shape = products ? CudaBlas.productShape(m, n) : CudaBlas.shape(m, n);
            shapes.add(shape[0] + "x" + shape[1]);
            split.add(CudaBlas.splits(k, CudaBlas.kChunk(CudaBlas.tiles(m, n, shape), k)) > 1);
        }

        void assertComplete(String what) {
            assertEquals(CudaBlas.SHAPES.length + (products ? 1 : 0), shapes.size(),
                    what + " covers the tile shapes " + shapes);
            assertEquals(Set.of(false, true), split, what + " runs with and without split k");
        }
    }

    /** The operand's tensor on backend {@code be}. */
    private static Tensor side(Backend be, Pair p, Operand o) {
        return be == p.cuda() ? o.cuda() : o.cpu();
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void gemmWithAlphaZeroReadsNeitherOperand(GpuTarget target) {
        withBackends(target, p -> {
            Random rng = new Random(12);
            Operand a = operand(p, 9, 21, null, 3);
            Operand b = random(p, rng, 21, 70);
            Operand c = random(p, rng, 9, 70);
            check("gemm alpha 0 with NaN a", p, c, true,
                    be -> be.gemm(false, false, 0f, side(be, p, a), side(be, p, b), 0.5f, side(be, p, c)));
        });
    }

    /**
     * {images, height, width, channels, kernelH, kernelW, stride, padding, filters}: non-square images, stride 2,
     * padding, 1×1 and non-square kernels, channel counts 1, 3 and 5, and shapes larger than a tile every way.
     */
    private static final int[][] CONV_SHAPES = {
            {3, 6, 5, 3, 3, 3, 1, 1, 5},     // resnet-like 3x3, padding 1, non-square image
            {2, 7, 9, 5, 3, 3, 2, 1, 4},     // stride 2 with padding
            {3, 5, 4, 3, 1, 1, 2, 0, 17},    // 1x1 kernel, stride 2 (the projection shortcut)
            {2, 12, 12, 1, 5, 5, 1, 0, 6},   // lenet's first layer, one channel
            {1, 4, 7, 2, 2, 3, 3, 2, 3},     // non-square kernel, padding as large as the kernel, stride 3
            {1, 1, 1, 3, 1, 1, 1, 0, 1},     // one pixel, one filter
            {2, 12, 12, 8, 3, 3, 1, 1, 70},  // 288 patch rows x 70 filters x 72: several tiles every way
            {16, 6, 5, 4, 3, 3, 1, 1, 7},    // weight gradient k = 480 split along k across image boundaries
            {8, 16, 16, 16, 3, 3, 1, 1, 16}, // resnet20's first stage, 8 images: weight gradient in 16 splits
            {4, 16, 16, 16, 3, 3, 2, 1, 32}, // resnet20's downsampling convolution
            {4, 8, 8, 64, 3, 3, 1, 1, 64},   // resnet20's last stage
            {2, 3, 4, 2, 2, 2, 1, 0, 200},   // many filters of a small patch: 256x16 weight gradient tiles
    };

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void convolutionsAgree(GpuTarget target) {
        withBackends(target, p -> {
            Random rng = new Random(13);
            Coverage forward = new Coverage(false);
            Coverage weights = new Coverage(false);
            for (int[] s : CONV_SHAPES) {
                int images = s[0];
                int filters = s[8];
                ConvGeometry g = new ConvGeometry(s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
                int rows = images * g.outPositions();
                forward.add(rows, filters, g.patchSize());
                weights.add(filters, g.patchSize(), rows);
                String what = g + " x" + images + " images, " + filters + " filters";
                Operand x = random(p, rng, images, g.inputSize());
                Operand w = random(p, rng, filters, g.patchSize());
                Operand dy = random(p, rng, rows, filters);
                Operand cols = random(p, rng, rows, g.patchSize());
                Operand y = operand(p, rows, filters, null, 5);
                Operand dw = operand(p, filters, g.patchSize(), null, 3);
                Operand patches = operand(p, rows, g.patchSize(), null, 1);
                Operand dx = operand(p, images, g.inputSize(), null, 7);
                Operand dxFromDy = operand(p, images, g.inputSize(), null, 2);
                check("convolve " + what, p, y, false, be -> be.convolve(side(be, p, x), g, side(be, p, w),
                        side(be, p, y)));
                check("convolveWeightGradient " + what, p, dw, false, be -> be.convolveWeightGradient(
                        side(be, p, x), g, side(be, p, dy), side(be, p, dw)));
                check("im2col " + what, p, patches, false, be -> be.im2col(side(be, p, x), g,
                        side(be, p, patches)));
                check("col2im " + what, p, dx, false, be -> be.col2im(side(be, p, cols), g, side(be, p, dx)));
                check("convolveDataGradient " + what, p, dxFromDy, false, be -> be.convolveDataGradient(
                        side(be, p, dy), g, side(be, p, w), side(be, p, dxFromDy)));
            }
            weights.assertComplete("convolveWeightGradient");
            System.out.println("convolve runs tile shapes " + forward.shapes + ", split k " + forward.split);
        });
    }

    /** col2im is the adjoint of im2col: ⟨im2col(x), c⟩ = ⟨x, col2im(c)⟩, checked on the CUDA results alone. */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void col2imIsTheAdjointOfIm2col(GpuTarget target) {
        withBackends(target, p -> {
            Random rng = new Random(14);
            ConvGeometry g = new ConvGeometry(7, 6, 3, 3, 2, 2, 1);
            int images = 2;
            int rows = images * g.outPositions();
            Operand x = random(p, rng, images, g.inputSize());
            Operand c = random(p, rng, rows, g.patchSize());
            Operand patches = operand(p, rows, g.patchSize(), null, 1);
            Operand dx = operand(p, images, g.inputSize(), null, 1);
            p.cuda().im2col(x.cuda(), g, patches.cuda());
            p.cuda().col2im(c.cuda(), g, dx.cuda());
            double left = dot(values(p.cuda(), patches.cuda()), values(p.cuda(), c.cuda()));
            double right = dot(values(p.cuda(), x.cuda()), values(p.cuda(), dx.cuda()));
            assertEquals(left, right, 1e-4 * (Math.abs(left) + 1), "<im2col(x), c> against <x, col2im(c)>");
        });
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    /** The stride-1 "same" input gradient, the flipped kernels' convolution of dy, against the CPU's. */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void stride1InputGradientAsFlippedConvolutionAgrees(GpuTarget target) {
        withBackends(target, p -> {
            Random rng = new Random(15);
            ConvGeometry g = ConvGeometry.square(6, 6, 3, 3, 1, 1);
            int images = 2;
            int filters = 5;
            Operand w = random(p, rng, filters, g.patchSize());
            Operand dy = random(p, rng, images * g.outPositions(), filters);
            Operand dx = operand(p, images, g.inputSize(), null, 1);
            check("dx", p, dx, false, be -> be.convolveDataGradient(side(be, p, dy), g, side(be, p, w),
                    side(be, p, dx)));
        });
    }
}
