package org.gridrun.engine.backend;

import java.util.Random;

/** The textbook matrix product that the backend's products are checked against. */
final class GemmReference {
    private GemmReference() {
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
    static float[] gaussian(Random rng, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) rng.nextGaussian();
        }
        return v;
    }
}
