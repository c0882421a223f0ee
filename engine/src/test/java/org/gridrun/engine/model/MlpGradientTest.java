package org.gridrun.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.model.nn.Models;
import org.gridrun.engine.model.nn.Network;
import org.junit.jupiter.api.Test;

/**
 * Checks the MLP's float backward pass against central differences of an independent float64 forward pass.
 */
class MlpGradientTest {
    private static final int[] SIZES = {5, 4, 3, 3};
    private static final int BATCH = 4;

    /** The mean cross-entropy of the MLP with parameters {@code p} (W1 out×in, b1, W2, b2, …), in double. */
    private static double oracleLoss(double[] p, double[] x, int[] labels) {
        double total = 0;
        for (int r = 0; r < labels.length; r++) {
            double[] a = new double[SIZES[0]];
            System.arraycopy(x, r * SIZES[0], a, 0, SIZES[0]);
            int offset = 0;
            for (int l = 1; l < SIZES.length; l++) {
                int in = SIZES[l - 1];
                int out = SIZES[l];
                double[] z = new double[out];
                for (int j = 0; j < out; j++) {
                    double sum = p[offset + in * out + j];
                    for (int i = 0; i < in; i++) {
                        sum += a[i] * p[offset + j * in + i];
                    }
                    z[j] = l < SIZES.length - 1 ? Math.max(sum, 0) : sum;
                }
                offset += in * out + out;
                a = z;
            }
            double max = Double.NEGATIVE_INFINITY;
            for (double v : a) {
                max = Math.max(max, v);
            }
            double sum = 0;
            for (double v : a) {
                sum += Math.exp(v - max);
            }
            total += Math.log(sum) + max - a[labels[r]];
        }
        return total / labels.length;
    }

    @Test
    void backwardMatchesCentralDifferences() {
        try (Backend backend = new CpuBackend();
             Network mlp = Models.mlp(backend, SIZES[0], List.of(SIZES[1], SIZES[2]), SIZES[3])) {
            mlp.initialize(13);
            int n = mlp.parameterCount();
            assertEquals(5 * 4 + 4 + 4 * 3 + 3 + 3 * 3 + 3, n);
            Random rng = new Random(2);
            float[] xs = new float[BATCH * SIZES[0]];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = (float) rng.nextGaussian();
            }
            int[] labels = {0, 2, 1, 2};
            float[] ys = {0, 2, 1, 2};
            Tensor x = backend.allocate(BATCH, SIZES[0]);
            Tensor y = backend.allocate(BATCH, 1);
            backend.upload(xs, 0, x);
            backend.upload(ys, 0, y);
            Model.Workspace ws = mlp.newWorkspace(BATCH);
            Tensor grad = backend.allocate(1, n);
            double loss = mlp.forward(ws, x, y);
            mlp.backward(ws, grad);

            float[] pf = new float[n];
            backend.download(mlp.parameters(), pf, 0);
            float[] g = new float[n];
            backend.download(grad, g, 0);
            double[] p = new double[n];
            double[] xd = new double[xs.length];
            for (int i = 0; i < n; i++) {
                p[i] = pf[i];
            }
            for (int i = 0; i < xs.length; i++) {
                xd[i] = xs[i];
            }
            assertEquals(oracleLoss(p, xd, labels), loss, 1e-5);
            double h = 1e-6;
            for (int i = 0; i < n; i++) {
                double saved = p[i];
                p[i] = saved + h;
                double up = oracleLoss(p, xd, labels);
                p[i] = saved - h;
                double down = oracleLoss(p, xd, labels);
                p[i] = saved;
                double numeric = (up - down) / (2 * h);
                assertEquals(numeric, g[i], 1e-5 + 1e-4 * Math.abs(numeric), "parameter " + i);
            }
        }
    }

    @Test
    void evaluationCountsAndPartialBatches() {
        try (Backend backend = new CpuBackend(); Network mlp = Models.mlp(backend, 2, List.of(), 2)) {
            // W = identity, b = 0: the predicted class is the larger input.
            backend.upload(new float[] {1, 0, 0, 1, 0, 0}, 0, mlp.parameters());
            Tensor x = backend.allocate(3, 2);
            backend.upload(new float[] {3, 1, 0, 2, 5, 4}, 0, x);
            Tensor y = backend.allocate(3, 1);
            backend.upload(new float[] {0, 1, 1}, 0, y);
            Model.Workspace ws = mlp.newWorkspace(8);
            Evaluation e = mlp.evaluate(ws, x, y);
            assertEquals(2, e.correct());
            assertEquals(3, e.count());
            double expected = Math.log(1 + Math.exp(-2)) + Math.log(1 + Math.exp(-2)) + Math.log(1 + Math.exp(1));
            assertEquals(expected, e.lossSum(), 1e-5);
            assertEquals("mlp 2-2", mlp.describe());
            assertThrows(IllegalStateException.class, () -> mlp.backward(ws, backend.allocate(1, 6)));
        }
    }
}
