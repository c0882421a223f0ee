package org.gridrun.engine.compress;

import java.util.Arrays;
import org.gridrun.engine.compress.levels.Density;
import org.gridrun.engine.compress.levels.DensityFit;

/**
 * Per-bucket statistics of gradients' values divided by their bucket's L2 norm, gathered over one or more gradients,
 * from which the adaptive quantizers fit their density.
 *
 * <p>Buckets of zero or non-finite norm are left out (their values carry no shape), and so are raw buckets (see
 * {@link Buckets#raw}). The norm-based fit takes every gathered bucket's mean, standard deviation and norm; the
 * norm-less fit takes the mean and standard deviation of all gathered normalised values pooled, combined exactly from
 * the buckets' own (the pooled variance is the mean of the buckets' variances plus the variance of their means,
 * weighted by size).
 */
final class BucketStats {
    private double[] means = new double[0];
    private double[] stds = new double[0];
    private double[] norms = new double[0];
    private int[] sizes = new int[0];
    private int count;

    /** Forgets everything gathered. */
    void clear() {
        count = 0;
    }

    /** Gathers the buckets of {@code g[offset …]} laid out by {@code b}. */
    void add(float[] g, int offset, Buckets b) {
        for (int k = 0; k < b.count(); k++) {
            int start = offset + b.start(k);
            int end = offset + b.start(k + 1);
            double norm = LevelQuantizer.Norm.L2.of(g, start, end, Float.POSITIVE_INFINITY);
            if (b.raw(k) || norm == 0 || !Double.isFinite(norm)) {
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
            append(mean, Math.sqrt(squares / (end - start)), norm, end - start);
        }
    }

    private void append(double mean, double std, double norm, int size) {
        if (count == means.length) {
            int grown = Math.max(16, 2 * count);
            means = Arrays.copyOf(means, grown);
            stds = Arrays.copyOf(stds, grown);
            norms = Arrays.copyOf(norms, grown);
            sizes = Arrays.copyOf(sizes, grown);
        }
        means[count] = mean;
        stds[count] = std;
        norms[count] = norm;
        sizes[count] = size;
        count++;
    }

    /** The norm-based mixture over the {@code distNum} largest-norm buckets, truncated to ±{@code interval}. */
    Density normBased(int distNum, double interval) {
        return DensityFit.normBased(Arrays.copyOf(means, count), Arrays.copyOf(stds, count),
                Arrays.copyOf(norms, count), distNum, interval);
    }

    /** One normal with the pooled values' mean and standard deviation, truncated to ±{@code interval}. */
    Density normLess(double interval) {
        double total = 0;
        double sum = 0;
        for (int k = 0; k < count; k++) {
            total += sizes[k];
            sum += sizes[k] * means[k];
        }
        double mean = total == 0 ? 0 : sum / total;
        double squares = 0;
        for (int k = 0; k < count; k++) {
            double d = means[k] - mean;
            squares += sizes[k] * (stds[k] * stds[k] + d * d);
        }
        return DensityFit.normLess(mean, total == 0 ? 0 : Math.sqrt(squares / total), interval);
    }
}
