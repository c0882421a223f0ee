package org.gridrun.engine.compress;

/** Sums over a range of floats in double precision, fast and in a fixed order (so the result is reproducible). */
final class Moments {
    private Moments() {
    }

    /**
     * The sum of squares of {@code g[from … to)}, and, when {@code sum} is not null, the plain sum into
     * {@code sum[at]}. Four interleaved chains of additions, so that they overlap instead of each waiting on the last.
     */
    static double squares(float[] g, int from, int to, double[] sum, int at) {
        if (Vectors.enabled) {
            return sum == null ? VectorMoments.squares(g, from, to) : VectorMoments.squares(g, from, to, sum, at);
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
            if (sum != null) {
                s0 += a + b;
                s1 += c + d;
            }
        }
        for (; i < to; i++) {
            double a = g[i];
            q0 += a * a;
            s0 += a;
        }
        if (sum != null) {
            sum[at] = s0 + s1;
        }
        return q0 + q1 + q2 + q3;
    }
}
