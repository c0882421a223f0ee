package org.gridrun.engine.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CPU backend's fused batch norm + ReLU against the two operations apart, to the bit, forward and backward
 * (which masks dy in its first pass where the channels fill whole vectors, else runs the two apart).
 */
class BatchNormReluTest {
    // rows × channels large enough that both threads share the passes; 13 channels are not a multiple of any vector
    // length (the two passes apart), 16 and 64 are (the backward masks as it sums)
    private static final int ROWS = 5000;
    private int channels;

    private final Backend backend = new CpuBackend();

    @AfterEach
    void close() {
        backend.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {13, 16, 64})
    void forwardAndBackwardMatchBatchNormThenRelu(int channelCount) {
        channels = channelCount;
        Random rng = new Random(21);
        Tensor x = tensor(ROWS, channels, TestTensors.gaussian(rng, ROWS * channels));
        Tensor gamma = tensor(1, channels, TestTensors.gaussian(rng, channels));
        Tensor beta = tensor(1, channels, TestTensors.gaussian(rng, channels));
        float[] dyValues = TestTensors.gaussian(rng, ROWS * channels);

        Tensor[] apart = forward(x, gamma, beta, false);
        Tensor[] fused = forward(x, gamma, beta, true);
        for (int i = 0; i < apart.length; i++) {
            assertArrayEquals(values(apart[i]), values(fused[i]), "forward output " + i);
        }
        float[] y = values(fused[0]);
        int zeros = 0;
        for (float v : y) {
            zeros += v == 0f ? 1 : 0;
        }
        assertTrue(zeros > ROWS * channels / 10, "the ReLU cut nothing: " + zeros);

        Tensor dyApart = tensor(ROWS, channels, dyValues);
        Tensor dyFused = tensor(ROWS, channels, dyValues);
        Tensor[] gradApart = gradients();
        Tensor[] gradFused = gradients();
        backend.reluBackward(apart[0], dyApart);
        backend.batchNormBackward(x, dyApart, gamma, apart[1], apart[2], gradApart[0], gradApart[1], gradApart[2]);
        backend.batchNormReluBackward(x, fused[0], dyFused, gamma, fused[1], fused[2], gradFused[0], gradFused[1],
                gradFused[2]);
        for (int i = 0; i < gradApart.length; i++) {
            assertArrayEquals(values(gradApart[i]), values(gradFused[i]), "gradient " + i);
        }
        assertArrayEquals(values(dyApart), values(dyFused), "dy masked alike");
    }

    /** y, mean, invStd, running mean, running variance. */
    private Tensor[] forward(Tensor x, Tensor gamma, Tensor beta, boolean fused) {
        Tensor[] out = {backend.allocate(ROWS, channels), backend.allocate(1, channels),
            backend.allocate(1, channels), backend.allocate(1, channels), backend.allocate(1, channels)};
        backend.fill(out[4], 1f);
        if (fused) {
            backend.batchNormRelu(x, gamma, beta, 1e-5f, out[1], out[2], out[3], out[4], 0.1f, out[0]);
        } else {
            backend.batchNorm(x, gamma, beta, 1e-5f, out[1], out[2], out[3], out[4], 0.1f, out[0]);
            backend.relu(out[0], out[0]);
        }
        return out;
    }

    /** dGamma, dBeta, dx. */
    private Tensor[] gradients() {
        return new Tensor[] {backend.allocate(1, channels), backend.allocate(1, channels),
            backend.allocate(ROWS, channels)};
    }

    private Tensor tensor(int rows, int cols, float[] values) {
        return TestTensors.tensor(backend, rows, cols, values);
    }

    private float[] values(Tensor t) {
        return TestTensors.values(backend, t);
    }
}
