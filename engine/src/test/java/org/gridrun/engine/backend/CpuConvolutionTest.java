package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CpuConvolutionTest {
    // 100 images of 8×8×3, a 3×3 window: 37 images a chunk, so each thread's half takes two chunks.
    private static final int IMAGES = 100;
    private static final int FILTERS = 8;

    private final Backend backend = new CpuBackend();

    @AfterEach
    void close() {
        backend.close();
    }

    @Test
    void convolveAgreesWithADirectConvolution() {
        for (ConvGeometry g : geometries()) {
            Random rng = new Random(5);
            float[] x = TestTensors.gaussian(rng, IMAGES * g.inputSize());
            float[] w = TestTensors.gaussian(rng, FILTERS * g.patchSize());
            Tensor y = backend.allocate(IMAGES * g.outPositions(), FILTERS);
            backend.convolve(tensor(IMAGES, g.inputSize(), x), g, tensor(FILTERS, g.patchSize(), w), y);
            assertArrayEquals(direct(g, x, w, null), values(y), 1e-4f, g.toString());
        }
    }

    @Test
    void weightGradientAgreesWithADirectSumAndRepeatsBitForBit() {
        for (ConvGeometry g : geometries()) {
            Random rng = new Random(6);
            float[] x = TestTensors.gaussian(rng, IMAGES * g.inputSize());
            float[] dy = TestTensors.gaussian(rng, IMAGES * g.outPositions() * FILTERS);
            Tensor xt = tensor(IMAGES, g.inputSize(), x);
            Tensor dyt = tensor(IMAGES * g.outPositions(), FILTERS, dy);
            Tensor dw = backend.allocate(FILTERS, g.patchSize());
            backend.convolveWeightGradient(xt, g, dyt, dw);
            float[] first = values(dw);
            assertArrayEquals(direct(g, x, null, dy), first, 2e-3f, g.toString());
            backend.convolveWeightGradient(xt, g, dyt, dw);
            assertArrayEquals(first, values(dw), g + ", second run");
        }
    }

    /**
     * The im2col path's data gradient is the adjoint of its forward convolution, ⟨x ⊛ w, dy⟩ = ⟨x, dx⟩, both on the
     * flipped kernels' convolution (stride 1, "same") and on col2im (stride 2), over several chunks a thread.
     */
    @Test
    void dataGradientIsTheAdjointOfTheConvolutionAndRepeatsBitForBit() {
        Convolver im2col = new CpuConvolution(NetlibBlas.instance());
        for (ConvGeometry g : geometries()) {
            Random rng = new Random(7);
            float[] x = TestTensors.gaussian(rng, IMAGES * g.inputSize());
            float[] w = TestTensors.gaussian(rng, FILTERS * g.patchSize());
            float[] dy = TestTensors.gaussian(rng, IMAGES * g.outPositions() * FILTERS);
            float[] y = new float[dy.length];
            float[] dx = TestTensors.gaussian(rng, x.length);
            im2col.forward(x, 0, g, IMAGES, w, 0, FILTERS, y, 0);
            im2col.dataGradient(dy, 0, g, IMAGES, w, 0, FILTERS, dx, 0);
            double left = dot(y, dy);
            assertEquals(left, dot(x, dx), 1e-4 * Math.abs(left) + 1e-2, g.toString());
            float[] again = new float[dx.length];
            im2col.dataGradient(dy, 0, g, IMAGES, w, 0, FILTERS, again, 0);
            assertArrayEquals(dx, again, g + ", second run");
        }
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

    private static ConvGeometry[] geometries() {
        return new ConvGeometry[] {ConvGeometry.square(8, 8, 3, 3, 1, 1), ConvGeometry.square(9, 7, 2, 3, 2, 0)};
    }

    /**
     * With {@code w}: the convolution, (images·positions) × filters; with {@code dy}: the weight gradient, filters ×
     * patch. Both by visiting every (image, position, filter, window value) once, in double.
     */
    private static float[] direct(ConvGeometry g, float[] x, float[] w, float[] dy) {
        int patch = g.patchSize();
        double[] out = new double[w != null ? IMAGES * g.outPositions() * FILTERS : FILTERS * patch];
        for (int n = 0; n < IMAGES; n++) {
            for (int oy = 0; oy < g.outHeight(); oy++) {
                for (int ox = 0; ox < g.outWidth(); ox++) {
                    int row = (n * g.outHeight() + oy) * g.outWidth() + ox;
                    for (int f = 0; f < FILTERS; f++) {
                        for (int p = 0; p < patch; p++) {
                            int ky = p / (g.kernelWidth() * g.channels());
                            int kx = p / g.channels() % g.kernelWidth();
                            int iy = oy * g.stride() - g.padding() + ky;
                            int ix = ox * g.stride() - g.padding() + kx;
                            if (iy < 0 || iy >= g.height() || ix < 0 || ix >= g.width()) {
                                continue;
                            }
                            double v = x[n * g.inputSize() + (iy * g.width() + ix) * g.channels() + p % g.channels()];
                            if (w != null) {
                                out[row * FILTERS + f] += v * w[f * patch + p];
                            } else {
                                out[f * patch + p] += v * dy[row * FILTERS + f];
                            }
                        }
                    }
                }
            }
        }
        float[] result = new float[out.length];
        for (int i = 0; i < out.length; i++) {
            result[i] = (float) out[i];
        }
        return result;
    }

    private Tensor tensor(int rows, int cols, float[] values) {
        return TestTensors.tensor(backend, rows, cols, values);
    }

    private float[] values(Tensor t) {
        return TestTensors.values(backend, t);
    }
}
