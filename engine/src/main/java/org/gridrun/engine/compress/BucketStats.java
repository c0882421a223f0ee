package org.gridrun.engine.compress;

import org.gridrun.engine.compress.levels.Density;
import org.gridrun.engine.compress.levels.DensityFit;

/**
 * Per-bucket statistics of a gradient's values divided by their bucket's L2 norm, from which the adaptive
 * quantizers fit their density; buckets of zero or non-finite norm are left out (their values carry no shape).
 */
record BucketStats(double[] means, double[] stds, double[] norms) {

    /** The means, standard deviations and norms of every bucket of {@code g[offset …]}. */
    static BucketStats of(float[] g, int offset, Buckets b) {
        int count = b.count();
        double[] means = new double[count];
        double[] stds = new double[count];
        double[] norms = new double[count];
        for (int k = 0; k < count; k++) {
            int start = offset + b.start(k);
            int end = offset + b.start(k + 1);
            double norm = LevelQuantizer.Norm.L2.of(g, start, end, Float.POSITIVE_INFINITY);
            if (norm == 0 || !Double.isFinite(norm)) {
                continue;
            }
            double sum = 0;
            for (int i = start; i < end; i++) {
                sum += g[i] / norm;
            }
            double mean = sum / (end - start);
            double squares = 0;
            for (int i = start; i < end; i++) {
                double d = g[i] / norm - mean;
                squares += d * d;
            }
            means[k] = mean;
            stds[k] = Math.sqrt(squares / (end - start));
            norms[k] = norm;
        }
        return new BucketStats(means, stds, norms);
    }

    /** The norm-based mixture over the {@code distNum} largest-norm buckets. */
    Density normBased(int distNum) {
        return DensityFit.normBased(means, stds, norms, distNum);
    }

    /** All values of buckets with a positive finite norm, each divided by that norm, pooled. */
    static float[] normalised(float[] g, int offset, Buckets b) {
        float[] out = new float[b.start(b.count())];
        int n = 0;
        for (int k = 0; k < b.count(); k++) {
            int start = offset + b.start(k);
            int end = offset + b.start(k + 1);
            double norm = LevelQuantizer.Norm.L2.of(g, start, end, Float.POSITIVE_INFINITY);
            if (norm == 0 || !Double.isFinite(norm)) {
                continue;
            }
            for (int i = start; i < end; i++) {
                out[n++] = (float) (g[i] / norm);
            }
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }
}
