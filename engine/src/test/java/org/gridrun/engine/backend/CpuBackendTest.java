package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CpuBackendTest {
    private final Backend backend = new CpuBackend();

    @AfterEach
    void close() {
        backend.close();
    }

    private Tensor tensor(int rows, int cols, float[] values) {
        return TestTensors.tensor(backend, rows, cols, values);
    }

    private float[] values(Tensor t) {
        return TestTensors.values(backend, t);
    }

    private static float[] random(Random rng, int n) {
        return TestTensors.gaussian(rng, n);
    }

    private static float[] reference(boolean ta, boolean tb, float[] a, int ar, int ac, float[] b, int br, int bc,
                                     float alpha, float beta, float[] c) {
        return TestTensors.product(ta, tb, a, ar, ac, b, br, bc, alpha, beta, c);
    }

    /** A weight gradient of a batch of one: Aᵀ·B with one inner row, large enough for the two-thread split. */
    @Test
    void aLargeTransposedProductWithOneInnerRowIsComputed() {
        Random rng = new Random(4);
        int m = 300;
        int n = 400;
        float[] a = random(rng, m);
        float[] b = random(rng, n);
        Tensor at = backend.allocate(1, m);
        Tensor bt = backend.allocate(1, n);
        Tensor ct = backend.allocate(m, n);
        backend.upload(a, 0, at);
        backend.upload(b, 0, bt);
        backend.gemm(true, false, 1f, at, bt, 0f, ct);
        float[] expected = reference(true, false, a, 1, m, b, 1, n, 1f, 0f, new float[m * n]);
        assertArrayEquals(expected, values(ct), 1e-5f);
    }

    @Test
    void gemmMatchesAReferenceForEveryTransposeOnViews() {
        Random rng = new Random(3);
        int m = 5;
        int k = 7;
        int n = 3;
        for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
                float[] a = random(rng, m * k);
                float[] b = random(rng, k * n);
                float[] c = random(rng, m * n);
                // Place each operand at an offset inside a larger flat buffer, as model parameters are.
                Tensor flat = backend.allocate(1, 11 + a.length + b.length + c.length);
                Tensor at = flat.view(11, ta ? k : m, ta ? m : k);
                Tensor bt = flat.view(11 + a.length, tb ? n : k, tb ? k : n);
                Tensor ct = flat.view(11 + a.length + b.length, m, n);
                backend.upload(a, 0, at);
                backend.upload(b, 0, bt);
                backend.upload(c, 0, ct);
                backend.gemm(ta, tb, 0.5f, at, bt, 2f, ct);
                float[] expected = reference(ta, tb, a, at.rows(), at.cols(), b, bt.rows(), bt.cols(), 0.5f, 2f, c);
                assertArrayEquals(expected, values(ct), 1e-4f, "transA=" + ta + " transB=" + tb);
            }
        }
    }

    @Test
    void largeProductsAboveNetlibsBlockingThresholdAreTiledCorrectly() {
        // m·n·k = 1.56M, past the 1M at which netlib's plain-Java sgemm blocks; the backend cuts it into tiles.
        Random rng = new Random(4);
        int m = 40;
        int n = 130;
        int k = 300;
        for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
                float[] a = random(rng, m * k);
                float[] b = random(rng, k * n);
                float[] c = random(rng, m * n);
                Tensor at = tensor(ta ? k : m, ta ? m : k, a);
                Tensor bt = tensor(tb ? n : k, tb ? k : n, b);
                Tensor ct = tensor(m, n, c);
                backend.gemm(ta, tb, 1f, at, bt, 0.5f, ct);
                float[] expected = reference(ta, tb, a, at.rows(), at.cols(), b, bt.rows(), bt.cols(), 1f, 0.5f, c);
                assertArrayEquals(expected, values(ct), 2e-3f, "transA=" + ta + " transB=" + tb);
            }
        }
    }

    @Test
    void gemmRejectsMismatchedShapes() {
        Tensor a = backend.allocate(2, 3);
        Tensor b = backend.allocate(2, 3);
        Tensor c = backend.allocate(2, 3);
        assertThrows(IllegalArgumentException.class, () -> backend.gemm(false, false, 1, a, b, 0, c));
    }

    @Test
    void elementwiseOperations() {
        Tensor x = tensor(2, 3, new float[] {-1, 2, -3, 4, -5, 6});
        Tensor y = backend.allocate(2, 3);
        backend.relu(x, y);
        assertArrayEquals(new float[] {0, 2, 0, 4, 0, 6}, values(y));
        Tensor grad = tensor(2, 3, new float[] {1, 1, 1, 1, 1, 1});
        backend.reluBackward(y, grad);
        assertArrayEquals(new float[] {0, 1, 0, 1, 0, 1}, values(grad));
        Tensor row = tensor(1, 3, new float[] {10, 20, 30});
        backend.addRowVector(row, x);
        assertArrayEquals(new float[] {9, 22, 27, 14, 15, 36}, values(x));
        Tensor sums = tensor(1, 3, new float[] {1, 1, 1});
        backend.columnSums(x, 2f, sums);
        assertArrayEquals(new float[] {25, 39, 65}, values(sums));
        backend.axpy(2f, grad, x);
        backend.scale(0.5f, x);
        assertArrayEquals(new float[] {4.5f, 12, 13.5f, 8, 7.5f, 19}, values(x));
        backend.fill(x, 3f);
        assertArrayEquals(new float[] {3, 3, 3, 3, 3, 3}, values(x));
    }

    /** The masked ReLU gradient keeps g bit for bit where y > 0 and is +0 elsewhere, even for infinite g or NaN y. */
    @Test
    void reluBackwardMasksExactlyOnEdgeValues() {
        float[] y = {0f, -0f, Float.MIN_VALUE, Float.MIN_NORMAL, 1f, Float.MAX_VALUE, Float.POSITIVE_INFINITY,
            Float.NaN, -1f, 0f, 2f};
        float[] g = {Float.POSITIVE_INFINITY, Float.NaN, -3.5f, 1e-30f, -0f, 7f, Float.NEGATIVE_INFINITY, 9f, 4f,
            Float.NaN, Float.NaN};
        float[] expected = new float[y.length];
        for (int i = 0; i < y.length; i++) {
            expected[i] = y[i] > 0f ? g[i] : 0f;
        }
        Tensor grad = tensor(1, g.length, g);
        backend.reluBackward(tensor(1, y.length, y), grad);
        float[] got = values(grad);
        for (int i = 0; i < y.length; i++) {
            assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(got[i]), "y = " + y[i]
                    + ", g = " + g[i]);
        }
    }

    /**
     * Padded max pooling against a direct oracle of PyTorch's rule: the maximum over the window's positions inside
     * the image (so on all-negative values a padded zero never wins), its gradient to the first of them in kernel
     * order; overlapping 3×3 stride-2 windows (the ResNet stem's) sum what reaches each input.
     */
    @Test
    void paddedMaxPoolingNeverPicksThePadding() {
        Random rng = new Random(21);
        int n = 2;
        for (ConvGeometry g : new ConvGeometry[] {ConvGeometry.square(7, 6, 3, 3, 2, 1),
                ConvGeometry.square(5, 5, 2, 2, 2, 1), new ConvGeometry(4, 6, 1, 3, 2, 1, 1)}) {
            float[] x = new float[n * g.inputSize()];
            for (int i = 0; i < x.length; i++) {
                x[i] = -1 - Math.round(rng.nextFloat() * 4);
            }
            float[] dy = random(rng, n * g.outPositions() * g.channels());
            float[] wantY = new float[dy.length];
            float[] wantDx = new float[x.length];
            for (int img = 0, o = 0; img < n; img++) {
                for (int oy = 0; oy < g.outHeight(); oy++) {
                    for (int ox = 0; ox < g.outWidth(); ox++) {
                        for (int c = 0; c < g.channels(); c++, o++) {
                            int best = -1;
                            for (int ky = 0; ky < g.kernelHeight(); ky++) {
                                for (int kx = 0; kx < g.kernelWidth(); kx++) {
                                    int iy = oy * g.stride() - g.padding() + ky;
                                    int ix = ox * g.stride() - g.padding() + kx;
                                    int at = ((img * g.height() + iy) * g.width() + ix) * g.channels() + c;
                                    boolean inside = iy >= 0 && iy < g.height() && ix >= 0 && ix < g.width();
                                    if (inside && (best < 0 || x[at] > x[best])) {
                                        best = at;
                                    }
                                }
                            }
                            wantY[o] = x[best];
                            wantDx[best] += dy[o];
                        }
                    }
                }
            }
            Tensor xt = tensor(n, g.inputSize(), x);
            Tensor y = backend.allocate(n, dy.length / n);
            Tensor dyt = tensor(n, dy.length / n, dy);
            Tensor dx = backend.allocate(n, g.inputSize());
            backend.maxPool(xt, g, y);
            backend.maxPoolBackward(xt, y, dyt, g, dx);
            assertArrayEquals(wantY, values(y), 0f, g.toString());
            assertArrayEquals(wantDx, values(dx), 1e-6f, g.toString());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> backend.maxPool(
                backend.allocate(1, 16), ConvGeometry.square(4, 4, 1, 3, 1, 2), backend.allocate(1, 36)));
        assertTrue(e.getMessage().startsWith("pooling padding must be at most half the kernel, found padding 2"),
                e.getMessage());
    }

    @Test
    void softmaxCrossEntropyAndItsGradient() {
        float[] logits = {1, 2, 3, 0, 0, 0};
        Tensor x = tensor(2, 3, logits);
        Tensor labels = tensor(2, 1, new float[] {2, 0});
        Tensor grad = backend.allocate(2, 3);
        double loss = backend.softmaxCrossEntropy(x, labels, grad, 0.5f);
        double z = Math.exp(1) + Math.exp(2) + Math.exp(3);
        double expected = (Math.log(z) - 3) + Math.log(3);
        assertEquals(expected, loss, 1e-6);
        float[] g = values(grad);
        assertEquals(0.5 * (Math.exp(3) / z - 1), g[2], 1e-6);
        assertEquals(0.5 * (Math.exp(1) / z), g[0], 1e-6);
        assertEquals(0.5 * (1.0 / 3 - 1), g[3], 1e-6);
        assertEquals(2, backend.countCorrect(x, labels), "row 0's arg max is 2; row 1's tie goes to class 0");
        Tensor wrong = tensor(2, 1, new float[] {1, 1});
        assertEquals(0, backend.countCorrect(x, wrong));
    }

    @Test
    void labelsOutsideTheClassesFail() {
        Tensor x = tensor(1, 3, new float[] {1, 2, 3});
        Tensor labels = tensor(1, 1, new float[] {3});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> backend.softmaxCrossEntropy(x, labels, null, 1));
        assertEquals("label must be a class index in [0, 3), found 3.0", e.getMessage());
    }

    @Test
    void fillUniformIsDeterministicAndInRange() {
        Tensor a = backend.allocate(10, 10);
        Tensor b = backend.allocate(10, 10);
        backend.fillUniform(a, -2, 2, 7, 1);
        backend.fillUniform(b, -2, 2, 7, 1);
        assertArrayEquals(values(a), values(b));
        for (float v : values(a)) {
            assertTrue(v >= -2 && v < 2);
        }
    }

    @Test
    void closedBuffersAndForeignTensorsFail() {
        Tensor t = backend.allocate(2, 2);
        Tensor view = t.view(1, 1, 2);
        view.close();
        assertFalse(t.buffer().isClosed(), "closing a view releases nothing");
        t.close();
        assertThrows(IllegalStateException.class, () -> backend.fill(t, 1));
        try (Backend other = new CpuBackend()) {
            Tensor foreign = Tensor.owning(new DeviceBuffer() {
                public long length() {
                    return 4;
                }

                public boolean isClosed() {
                    return false;
                }

                public void close() {
                }
            }, 2, 2);
            assertThrows(IllegalArgumentException.class, () -> other.fill(foreign, 1));
        }
    }

    @Test
    void registryProbesAndOpensTheCpuBackend() {
        assertTrue(Backends.names().containsAll(java.util.List.of("auto", "cpu")));
        BackendProbe cpu = Backends.probe().stream().filter(p -> p.name().equals("cpu")).findFirst().orElseThrow();
        assertTrue(cpu.available());
        assertTrue(cpu.detail().startsWith("netlib "), cpu.detail());
        try (Backend opened = Backends.open("cpu")) {
            assertEquals("cpu", opened.name());
            assertEquals(CpuBackend.blasName(), opened.blas());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Backends.open("tpu"));
        assertEquals("backend must be one of [auto, cuda, cpu], found 'tpu'", e.getMessage());
    }
}
