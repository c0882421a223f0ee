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

class AdamTest {
    private static final float[] P0 = {1.0f, -2.0f, 0.5f};
    /** The gradients of steps 1, 2 and 3. */
    private static final float[][] G = {{0.5f, 0.25f, -1.0f}, {-0.3f, 0.5f, 2.0f}, {0.1f, -0.2f, 0.0f}};

    private static Adam adam(Backend backend) {
        return new Adam(backend, DecaySegments.all(3), 0.01, 0.9, 0.999, 1e-8, 0.1);
    }

    private static void step(Backend backend, Adam adam, Tensor p, int t) {
        try (Tensor g = backend.allocate(1, 3)) {
            backend.upload(G[t], 0, g);
            adam.step(p, g);
            float[] after = new float[3];
            backend.download(g, after, 0);
            assertArrayEquals(G[t], after, "the gradient is not modified");
        }
    }

    private static float[] values(Backend backend, Tensor t) {
        float[] out = new float[3];
        backend.download(t, out, 0);
        return out;
    }

    @Test
    void threeStepsMatchPyTorchsAdamComputedByHand() {
        // torch.optim.Adam(lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.1), its formula evaluated in double
        // precision step by step: d = g + 0.1p; m = 0.9m + 0.1d; v = 0.999v + 0.001d²;
        // p -= 0.01/(1 − 0.9^t) · m / (√v / √(1 − 0.999^t) + 1e-8). Step 1 moves each value by about lr·sign(d).
        double[][] expected = {
            {0.9900000001666667, -2.0099999980000005, 0.5099999998947369},
            {0.9860115861622782, -2.0184441687579735, 0.5060622322116942},
            {0.9811556430243386, -2.0172732978073116, 0.5028760185971386}};
        try (Backend backend = new CpuBackend(); Adam adam = adam(backend); Tensor p = backend.allocate(1, 3)) {
            backend.upload(P0, 0, p);
            for (int t = 0; t < 3; t++) {
                step(backend, adam, p, t);
                float[] actual = values(backend, p);
                for (int i = 0; i < 3; i++) {
                    assertEquals(expected[t][i], actual[i], 1e-6, "step " + (t + 1) + ", value " + i);
                }
            }
            assertEquals(3, adam.steps());
        }
    }

    @Test
    void aRestoredAdamContinuesBitForBit() throws IOException {
        try (Backend backend = new CpuBackend(); Tensor p = backend.allocate(1, 3)) {
            backend.upload(P0, 0, p);
            ByteArrayOutputStream state = new ByteArrayOutputStream();
            float[] afterTwo;
            float[] expected;
            try (Adam adam = adam(backend)) {
                step(backend, adam, p, 0);
                step(backend, adam, p, 1);
                adam.saveState(new DataOutputStream(state));
                afterTwo = values(backend, p);
                step(backend, adam, p, 2);
                expected = values(backend, p);
            }
            assertEquals(24 + 8 * 3, state.size());
            backend.upload(afterTwo, 0, p);
            try (Adam restored = new Adam(backend, DecaySegments.all(3), 0.5, 0.9, 0.999, 1e-8, 0.1)) {
                restored.restoreState(new DataInputStream(new ByteArrayInputStream(state.toByteArray())));
                assertEquals(0.01, restored.learningRate());
                assertEquals(2, restored.steps());
                step(backend, restored, p, 2);
            }
            assertArrayEquals(expected, values(backend, p), 0f);
        }
    }

    @Test
    void badHyperParametersFail() {
        try (Backend backend = new CpuBackend()) {
            DecaySegments all = DecaySegments.all(3);
            assertEquals("beta1 must be in [0, 1), found 1.0", assertThrows(IllegalArgumentException.class,
                    () -> new Adam(backend, all, 0.1, 1, 0.999, 1e-8, 0)).getMessage());
            assertEquals("beta2 must be in [0, 1), found -0.5", assertThrows(IllegalArgumentException.class,
                    () -> new Adam(backend, all, 0.1, 0.9, -0.5, 1e-8, 0)).getMessage());
            assertEquals("eps must be positive, found 0.0", assertThrows(IllegalArgumentException.class,
                    () -> new Adam(backend, all, 0.1, 0.9, 0.999, 0, 0)).getMessage());
        }
    }
}
