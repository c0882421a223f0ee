package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.gridrun.engine.simd.Simd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CPU backend's Vector API loops against the scalar ones, to the bit. Batch norm: forward (with and without
 * ReLU), inference and backward, on channel counts below, at and between vector lengths and row counts that leave
 * partial runs and split (or not) over the threads; the CUDA kernel reproduces the scalar summation order, so equal
 * bits here keep the backends equal too. ReLU, its backward, axpy and the residual sum + ReLU on values that test
 * the edge rules (NaN, ±0, ±∞, subnormals) at lengths and offsets that leave tails; the SGD step (NaNs compared as
 * NaN, whichever payload the CPU gave them); max pooling's backward pass on ties.
 */
class CpuVectorPathTest {
    private static final int[] CHANNELS = {1, 7, 8, 13, 16, 24, 35, 64, 100};
    private static final int[] ROWS = {1, 2, 33, 95, 5003};

    @AfterEach
    void restore() {
        CpuVectors.enabled = Simd.enabled();
    }

    @Test
    void vectorLoopsGiveTheScalarBits() {
        assumeTrue(Simd.enabled(), Simd.describe());
        int compared = 0;
        for (int channels : CHANNELS) {
            for (int rows : ROWS) {
                if ((long) rows * channels > 400_000) {
                    continue;
                }
                List<float[]> scalar = run(rows, channels, false);
                List<float[]> vector = run(rows, channels, true);
                for (int i = 0; i < scalar.size(); i++) {
                    assertArrayEquals(scalar.get(i), vector.get(i), "output " + i + " at " + rows + " x " + channels);
                    compared += scalar.get(i).length;
                }
            }
        }
        assertTrue(compared > 1_000_000, "compared only " + compared + " values");
    }

    @Test
    void elementwiseLoopsGiveTheScalarBits() {
        assumeTrue(Simd.enabled(), Simd.describe());
        Backend backend = new CpuBackend();
        try {
            for (int n : new int[] {1, 15, 17, 100_003}) {
                float[] values = edgeValues(n, new Random(n));
                float[] other = edgeValues(n, new Random(n + 1));
                List<float[]> scalar = elementwise(backend, values, other, false);
                List<float[]> vector = elementwise(backend, values, other, true);
                for (int i = 0; i < scalar.size(); i++) {
                    assertArrayEquals(bits(scalar.get(i)), bits(vector.get(i)), "output " + i + " at length " + n);
                }
            }
        } finally {
            backend.close();
        }
    }

    /**
     * relu(x), reluBackward(y = values, g = other), other + 0.7·values, max(other + values, 0) (checked against
     * axpy and relu apart); each on views at offset 1.
     */
    private static List<float[]> elementwise(Backend backend, float[] values, float[] other, boolean vectors) {
        CpuVectors.enabled = vectors;
        int n = values.length;
        Tensor x = backend.allocate(1, n + 1).view(1, 1, n);
        Tensor g = backend.allocate(1, n + 1).view(1, 1, n);
        Tensor out = backend.allocate(1, n + 1).view(1, 1, n);
        backend.upload(values, 0, x);
        backend.upload(other, 0, g);
        List<float[]> results = new ArrayList<>();
        backend.relu(x, out);
        results.add(download(backend, out));
        backend.reluBackward(x, g);
        results.add(download(backend, g));
        backend.upload(other, 0, g);
        backend.axpy(0.7f, x, g);
        results.add(download(backend, g));
        backend.upload(other, 0, g);
        backend.addRelu(x, g);
        float[] fused = download(backend, g);
        backend.upload(other, 0, g);
        backend.axpy(1f, x, g);
        backend.relu(g, g);
        assertArrayEquals(bits(download(backend, g)), bits(fused), "addRelu is axpy then relu");
        results.add(fused);
        return results;
    }

    /** Gaussian values with NaN, ±0, ±∞, subnormals and the largest float mixed in. */
    private static float[] edgeValues(int n, Random rng) {
        float[] edges = {Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE,
            -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE};
        float[] v = TestTensors.gaussian(rng, n);
        for (int i = 0; i < n; i++) {
            if (rng.nextInt(4) == 0) {
                v[i] = edges[rng.nextInt(edges.length)];
            }
        }
        return v;
    }

    private static float[] download(Backend backend, Tensor t) {
        float[] out = new float[t.size()];
        backend.download(t, out, 0);
        return out;
    }

    /** The bits, every NaN as the canonical one: which NaN an operation on NaNs and infinities gives is the CPU's. */
    private static int[] canonical(float[] values) {
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Float.floatToIntBits(values[i]);
        }
        return out;
    }

    private static int[] bits(float[] values) {
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Float.floatToRawIntBits(values[i]);
        }
        return out;
    }

    @Test
    void sgdGivesTheScalarBits() {
        assumeTrue(Simd.enabled(), Simd.describe());
        Backend backend = new CpuBackend();
        try {
            for (int n : new int[] {7, 1003, 70_001}) {
                for (boolean nesterov : new boolean[] {false, true}) {
                    for (float momentum : new float[] {0f, 0.9f}) {
                        List<float[]> scalar = sgdSteps(backend, n, nesterov, momentum, false);
                        List<float[]> vector = sgdSteps(backend, n, nesterov, momentum, true);
                        for (int i = 0; i < scalar.size(); i++) {
                            assertArrayEquals(canonical(scalar.get(i)), canonical(vector.get(i)), "sgd " + n
                                    + " values, nesterov " + nesterov + ", momentum " + momentum + ", output " + i);
                        }
                    }
                }
            }
        } finally {
            backend.close();
        }
    }

    /** Parameters and velocity after three steps with weight decay, from the same random start. */
    private static List<float[]> sgdSteps(Backend backend, int n, boolean nesterov, float momentum,
                                          boolean vectors) {
        CpuVectors.enabled = vectors;
        Random rng = new Random(n);
        Tensor params = TestTensors.tensor(backend, 1, n, TestTensors.gaussian(rng, n));
        Tensor velocity = TestTensors.tensor(backend, 1, n, TestTensors.gaussian(rng, n));
        for (int step = 0; step < 3; step++) {
            Tensor grad = TestTensors.tensor(backend, 1, n, edgeValues(n, rng));
            backend.sgdUpdate(params, grad, velocity, 0.1f, momentum, nesterov, 5e-4f);
        }
        return List.of(download(backend, params), download(backend, velocity));
    }

    @Test
    void maxPoolBackwardGivesTheScalarBits() {
        assumeTrue(Simd.enabled(), Simd.describe());
        Backend backend = new CpuBackend();
        try {
            // overlapping 3x3 windows with padding, and 2x2 ones; channels below, at and past whole vectors; values
            // from a few integers, so that windows hold ties that the first position in kernel order must win
            for (int channels : new int[] {6, 16, 37, 64}) {
                for (ConvGeometry g : List.of(new ConvGeometry(9, 7, channels, 3, 3, 2, 1),
                        new ConvGeometry(8, 8, channels, 2, 2, 2, 0))) {
                    Random rng = new Random(channels);
                    int images = 5;
                    float[] x = new float[images * g.inputSize()];
                    for (int i = 0; i < x.length; i++) {
                        x[i] = rng.nextInt(4) - 1;
                    }
                    float[] dy = TestTensors.gaussian(rng, images * g.outPositions() * channels);
                    int[] scalar = bits(maxPoolBackward(backend, g, images, x, dy, false));
                    int[] vector = bits(maxPoolBackward(backend, g, images, x, dy, true));
                    assertArrayEquals(scalar, vector, "max pool backward, " + channels + " channels, " + g);
                }
            }
        } finally {
            backend.close();
        }
    }

    private static float[] maxPoolBackward(Backend backend, ConvGeometry g, int images, float[] x, float[] dy,
                                           boolean vectors) {
        CpuVectors.enabled = vectors;
        Tensor xt = TestTensors.tensor(backend, images, g.inputSize(), x);
        Tensor y = backend.allocate(images, g.outPositions() * g.channels());
        backend.maxPool(xt, g, y);
        Tensor dyt = TestTensors.tensor(backend, images, g.outPositions() * g.channels(), dy);
        Tensor dx = backend.allocate(images, g.inputSize());
        backend.maxPoolBackward(xt, y, dyt, g, dx);
        return download(backend, dx);
    }

    /** Forward y, mean, invStd, running mean and variance, fused ReLU y, inference y, dGamma, dBeta, dx. */
    private static List<float[]> run(int rows, int channels, boolean vectors) {
        CpuVectors.enabled = vectors;
        CpuNormKernels kernels = new CpuNormKernels();
        Random rng = new Random(rows * 31L + channels);
        int offset = 3;
        float[] x = shifted(TestTensors.gaussian(rng, rows * channels), offset, rng);
        float[] dy = shifted(TestTensors.gaussian(rng, rows * channels), offset, rng);
        float[] gamma = TestTensors.gaussian(rng, channels);
        float[] beta = TestTensors.gaussian(rng, channels);
        float[] mean = new float[channels];
        float[] invStd = new float[channels];
        float[] runningMean = TestTensors.gaussian(rng, channels);
        float[] runningVar = new float[channels];
        java.util.Arrays.fill(runningVar, 1.5f);
        float[] y = new float[offset + rows * channels];
        float[] yRelu = new float[offset + rows * channels];
        float[] yInference = new float[offset + rows * channels];
        kernels.forwardTraining(x, offset, rows, channels, gamma, 0, beta, 0, 1e-5f, mean, 0, invStd, 0,
                runningMean, 0, runningVar, 0, 0.1f, y, offset, false);
        kernels.forwardTraining(x, offset, rows, channels, gamma, 0, beta, 0, 1e-5f, mean, 0, invStd, 0, null, 0,
                null, 0, 0.1f, yRelu, offset, true);
        kernels.forwardInference(x, offset, rows, channels, gamma, 0, beta, 0, runningMean, 0, runningVar, 0, 1e-5f,
                yInference, offset);
        float[] dGamma = new float[channels];
        float[] dBeta = new float[channels];
        float[] dx = new float[offset + rows * channels];
        kernels.backward(x, offset, null, 0, dy, offset, rows, channels, gamma, 0, mean, 0, invStd, 0, dGamma, 0,
                dBeta, 0, dx, offset);
        return new ArrayList<>(List.of(y, mean, invStd, runningMean, runningVar, yRelu, yInference, dGamma, dBeta,
                dx));
    }

    /** {@code values} behind {@code offset} leading values, moved off zero so the means are not all near 0. */
    private static float[] shifted(float[] values, int offset, Random rng) {
        float[] out = new float[offset + values.length];
        float shift = (float) rng.nextGaussian() * 4;
        for (int i = 0; i < values.length; i++) {
            out[offset + i] = values[i] * 2 + shift;
        }
        return out;
    }
}
