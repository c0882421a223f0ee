package org.gridrun.engine.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.junit.jupiter.api.Test;

class SgdTest {
    private static final float[] P0 = {1.0f, -2.0f, 0.5f};
    private static final float[] G = {0.5f, 0.25f, -1.0f};

    private static float[] steps(double momentum, boolean nesterov, double wd, int count) {
        try (Backend backend = new CpuBackend()) {
            Tensor p = backend.allocate(1, 3);
            Tensor g = backend.allocate(1, 3);
            backend.upload(P0, 0, p);
            backend.upload(G, 0, g);
            try (Sgd sgd = new Sgd(backend, 3, 0.1, momentum, nesterov, wd)) {
                for (int i = 0; i < count; i++) {
                    sgd.step(p, g);
                }
            }
            float[] out = new float[3];
            backend.download(p, out, 0);
            float[] grad = new float[3];
            backend.download(g, grad, 0);
            assertArrayEquals(G, grad, "the gradient is not modified");
            return out;
        }
    }

    @Test
    void nesterovWithWeightDecayMatchesTwoHandComputedSteps() {
        // lr 0.1, momentum 0.9, weight decay 0.01, by hand:
        // step 1: d = g + 0.01p = (0.51, 0.23, −0.995); v = d; p −= 0.1(d + 0.9v) → (0.9031, −2.0437, 0.68905)
        // step 2: d = (0.509031, 0.229563, −0.9931095); v = 0.9v + d = (0.968031, 0.436563, −1.8886095);
        //         p −= 0.1(d + 0.9v) → (0.76507411, −2.10594697, 0.958335805)
        assertArrayEquals(new float[] {0.9031f, -2.0437f, 0.68905f}, steps(0.9, true, 0.01, 1), 1e-6f);
        assertArrayEquals(new float[] {0.76507411f, -2.10594697f, 0.958335805f}, steps(0.9, true, 0.01, 2), 1e-6f);
    }

    @Test
    void heavyBallMomentumAndPlainSgd() {
        // Heavy ball, no decay: v1 = g, v2 = 1.9g; p2 = p − 0.1(g + 1.9g) = p − 0.29g.
        assertArrayEquals(new float[] {0.855f, -2.0725f, 0.79f}, steps(0.9, false, 0, 2), 1e-6f);
        // Plain SGD with decay: p1 = p − 0.1(g + 0.5p) = 0.95p − 0.1g.
        assertArrayEquals(new float[] {0.9f, -1.925f, 0.575f}, steps(0, false, 0.5, 1), 1e-6f);
    }

    @Test
    void aRestoredOptimizerContinuesBitForBit() throws IOException {
        try (Backend backend = new CpuBackend()) {
            Tensor p = backend.allocate(1, 3);
            Tensor g = backend.allocate(1, 3);
            backend.upload(P0, 0, p);
            backend.upload(G, 0, g);
            ByteArrayOutputStream state = new ByteArrayOutputStream();
            float[] afterTwo = new float[3];
            float[] expected = new float[3];
            try (Sgd sgd = new Sgd(backend, 3, 0.1, 0.9, true, 0.01)) {
                sgd.step(p, g);
                sgd.step(p, g);
                sgd.saveState(new DataOutputStream(state));
                backend.download(p, afterTwo, 0);
                sgd.step(p, g);
                backend.download(p, expected, 0);
            }
            assertEquals(13 + 4 * 3, state.size());
            backend.upload(afterTwo, 0, p);
            try (Sgd restored = new Sgd(backend, 3, 0.5, 0.9, true, 0.01)) {
                restored.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
                assertEquals(0.1, restored.learningRate());
                restored.step(p, g);
            }
            float[] actual = new float[3];
            backend.download(p, actual, 0);
            assertArrayEquals(expected, actual, 0f);
            try (Sgd plain = new Sgd(backend, 3, 0.1, 0, false, 0)) {
                assertEquals("saved sgd state has velocity; this optimizer has momentum 0.0",
                        assertThrows(IllegalStateException.class, () -> plain.restoreState(
                                new DataInputStream(new ByteArrayInputStream(state.toByteArray())))).getMessage());
            }
        }
    }

    @Test
    void badHyperParametersFail() {
        try (Backend backend = new CpuBackend()) {
            assertEquals("lr must be positive, found -0.1", assertThrows(IllegalArgumentException.class,
                    () -> new Sgd(backend, 3, -0.1, 0, false, 0)).getMessage());
            assertEquals("momentum must be in [0, 1), found 1.0", assertThrows(IllegalArgumentException.class,
                    () -> new Sgd(backend, 3, 0.1, 1, false, 0)).getMessage());
            assertEquals("nesterov needs a positive momentum, found 0.0", assertThrows(
                    IllegalArgumentException.class, () -> new Sgd(backend, 3, 0.1, 0, true, 0)).getMessage());
        }
    }
}
