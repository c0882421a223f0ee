package org.gridrun.engine.backend;

import java.util.Random;

/**
 * Test inputs and oracles for the backends (the CPU's tests and the CUDA backend's): tensors from values, random
 * values, the textbook matrix product.
 */
public final class TestTensors {
    private TestTensors() {
    }

    /** Row-major reference product with optional transposes, in double. */
    static float[] product(boolean ta, boolean tb, float[] a, int ar, int ac, float[] b, int br, int bc,
                           float alpha, float beta, float[] c) {
        int m = ta ? ac : ar;
        int k = ta ? ar : ac;
        int n = tb ? br : bc;
        float[] out = new float[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double sum = 0;
                for (int p = 0; p < k; p++) {
                    double x = ta ? a[p * ac + i] : a[i * ac + p];
                    double y = tb ? b[j * bc + p] : b[p * bc + j];
                    sum += x * y;
                }
                out[i * n + j] = (float) (alpha * sum + beta * c[i * n + j]);
            }
        }
        return out;
    }

    /** {@code n} standard normal values from {@code rng}. */
    public static float[] gaussian(Random rng, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) rng.nextGaussian();
        }
        return v;
    }

    /** A new tensor of {@code backend} holding {@code values}. */
    public static Tensor tensor(Backend backend, int rows, int cols, float[] values) {
        Tensor t = backend.allocate(rows, cols);
        backend.upload(values, 0, t);
        return t;
    }

    /** The values of {@code t}. */
    public static float[] values(Backend backend, Tensor t) {
        float[] out = new float[t.size()];
        backend.download(t, out, 0);
        return out;
    }
}
