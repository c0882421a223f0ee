package org.gridrun.engine.backend;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.JavaBLAS;
import java.util.Random;

/**
 * Run in a JVM of its own by {@link BlasSelectionTest} (the BLAS is chosen once per process): prints what
 * {@code list backends} would say of the BLAS, then the largest difference between its {@code sgemm} and netlib's
 * Java one on a random product, relative to the largest entry.
 */
final class BlasChoiceMain {
    private BlasChoiceMain() {
    }

    public static void main(String[] args) {
        System.out.println(NetlibBlas.describe());
        int m = 67;
        int n = 45;
        int k = 129;
        Random random = new Random(15);
        float[] a = new float[m * k];
        float[] b = new float[k * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) random.nextGaussian();
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (float) random.nextGaussian();
        }
        float[] chosen = product(NetlibBlas.instance(), m, n, k, a, b);
        float[] java = product(JavaBLAS.getInstance(), m, n, k, a, b);
        double largest = 0;
        double difference = 0;
        for (int i = 0; i < chosen.length; i++) {
            largest = Math.max(largest, Math.abs(java[i]));
            difference = Math.max(difference, Math.abs(chosen[i] - java[i]));
        }
        System.out.println(difference / largest);
    }

    private static float[] product(BLAS blas, int m, int n, int k, float[] a, float[] b) {
        float[] c = new float[m * n];
        blas.sgemm("N", "N", m, n, k, 1f, a, m, b, k, 0f, c, m);
        return c;
    }
}
