package org.gridrun.engine.compress;

import java.util.Arrays;

/** Sums over a range of floats in double precision, fast and in a fixed order (so the result is reproducible). */
final class Moments {
    /**
     * The interleaved chains of {@link #chainSquares}: value {@code from + i} adds to chain {@code i mod CHAINS}.
     * As many as the GPU's block of threads that sums one bucket ({@code quantize.cu}), one chain each.
     */
    static final int CHAINS = 128;

    /** Each thread's chain sums for {@link #chainSquares}. */
    private static final ThreadLocal<double[]> CHAIN_SUMS = ThreadLocal.withInitial(() -> new double[CHAINS]);

    private Moments() {
    }

    /**
     * The sum of squares of {@code g[from … to)} in an order that both a CPU's vectors and a GPU's block of threads
     * follow at full speed: value {@code from + i} adds to chain {@code i mod} {@value #CHAINS}, each chain in
     * increasing order, then the chains meet in a fixed tree (chain {@code j} takes chain {@code j + h} for
     * {@code h} = 64, 32, …, 1, while {@code j < h}), and chain 0 is the sum. A level quantizer's L2 bucket norm.
     */
    static double chainSquares(float[] g, int from, int to) {
        double[] chains = CHAIN_SUMS.get();
        Arrays.fill(chains, 0);
        int i = from;
        if (Vectors.enabled) {
            i = VectorMoments.chainSquares(g, from, to, chains);
        }
        for (; i < to; i++) {
            double a = g[i];
            chains[(i - from) & (CHAINS - 1)] += a * a;
        }
        for (int h = CHAINS / 2; h > 0; h >>= 1) {
            for (int j = 0; j < h; j++) {
                chains[j] += chains[j + h];
            }
        }
        return chains[0];
    }

    /**
     * The sum of squares of {@code g[from … to)}, and the plain sum into {@code sum[at]}. Four interleaved chains of
     * additions, so that they overlap instead of each waiting on the last.
     */
    static double squares(float[] g, int from, int to, double[] sum, int at) {
        if (Vectors.enabled) {
            return VectorMoments.squares(g, from, to, sum, at);
        }
        double q0 = 0;
        double q1 = 0;
        double q2 = 0;
        double q3 = 0;
        double s0 = 0;
        double s1 = 0;
        int i = from;
        for (; i + 3 < to; i += 4) {
            double a = g[i];
            double b = g[i + 1];
            double c = g[i + 2];
            double d = g[i + 3];
            q0 += a * a;
            q1 += b * b;
            q2 += c * c;
            q3 += d * d;
            s0 += a + b;
            s1 += c + d;
        }
        for (; i < to; i++) {
            double a = g[i];
            q0 += a * a;
            s0 += a;
        }
        sum[at] = s0 + s1;
        return q0 + q1 + q2 + q3;
    }
}
