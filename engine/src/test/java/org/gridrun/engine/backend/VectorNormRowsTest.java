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
 * Batch norm's Vector API row loops against the scalar ones, to the bit: forward (with and without ReLU), inference
 * and backward, on channel counts below, at and between vector lengths and row counts that leave partial runs and
 * split (or not) over the threads. The CUDA kernel reproduces the scalar summation order, so equal bits here keep
 * the backends equal too.
 */
class VectorNormRowsTest {
    private static final int[] CHANNELS = {1, 7, 8, 13, 16, 24, 35, 64, 100};
    private static final int[] ROWS = {1, 2, 33, 95, 5003};

    @AfterEach
    void restore() {
        CpuNormKernels.vectors = Simd.enabled();
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

    /** Forward y, mean, invStd, running mean and variance, fused ReLU y, inference y, dGamma, dBeta, dx. */
    private static List<float[]> run(int rows, int channels, boolean vectors) {
        CpuNormKernels.vectors = vectors;
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
        kernels.backward(x, offset, dy, offset, rows, channels, gamma, 0, mean, 0, invStd, 0, dGamma, 0, dBeta, 0,
                dx, offset);
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
