package org.gridrun.engine.compress.levels;

import java.util.Arrays;

/**
 * Builds the density on [-1, 1] that the level fitters optimise for, from observed normalised gradient values.
 *
 * <p>Both fits use the sample mean and standard deviation as the parameters of the normal before truncation (a
 * moment fit, as in the seed), not the exact maximum-likelihood truncated fit.
 *
 * <p>Degenerate input falls back to the {@link Uniform} density on [-1, 1], for which every fitter returns (close
 * to) uniform levels: no values, values that are all equal (standard deviation below {@value #MIN_STD}), non-finite
 * statistics, or a normal that puts no mass on its interval. This keeps NaN out of the levels.
 *
 * <p>The normals are truncated to [-1, 1], or, given a truncated interval {@code t} in (0, 1] (the seed's
 * {@code nuq_truncated_interval}), to [-t, t]: the fitted levels still span [-1, 1], but the fit then counts no
 * mass beyond ±t.
 */
public final class DensityFit {
    /** Standard deviations below this count as zero spread. */
    public static final double MIN_STD = 1e-6;

    private static final Density UNIFORM = new Uniform(-1, 1);

    private DensityFit() {
    }

    /**
     * The norm-less fit ({@code alq}, {@code amq}): one normal with the pooled values' mean and standard deviation,
     * truncated to [-1, 1].
     *
     * @param normalisedValues coordinates divided by their bucket norm, so in [-1, 1]
     * @return the truncated normal, or the uniform density when the values are degenerate
     */
    public static Density normLess(float[] normalisedValues) {
        int n = normalisedValues.length;
        if (n == 0) {
            return UNIFORM;
        }
        double sum = 0;
        for (float v : normalisedValues) {
            sum += v;
        }
        double mean = sum / n;
        double squares = 0;
        for (float v : normalisedValues) {
            double d = v - mean;
            squares += d * d;
        }
        return truncatedOrUniform(mean, Math.sqrt(squares / n), 1);
    }

    /**
     * The norm-less fit from the pooled values' mean and standard deviation, already computed: one normal truncated
     * to [-interval, interval].
     *
     * @param interval the truncated interval's half-width, in (0, 1]
     * @return the truncated normal, or the uniform density on [-1, 1] when the statistics are degenerate
     * @throws IllegalArgumentException if interval is outside (0, 1]
     */
    public static Density normLess(double mean, double std, double interval) {
        return truncatedOrUniform(mean, std, checkInterval(interval));
    }

    /**
     * The norm-based fit ({@code alq_nb}, {@code amq_nb}): a mixture with one truncated normal per bucket, weighted
     * by bucket norm, over the {@code distNum} buckets of largest norm.
     *
     * <p>Buckets with no spread, no norm, or no mass on [-1, 1] are skipped; ties in norm at the cut are broken by
     * bucket order.
     *
     * @param bucketMeans mean of each bucket's normalised values
     * @param bucketStds standard deviation of each bucket's normalised values
     * @param bucketNorms each bucket's norm, non-negative
     * @param distNum how many of the largest-norm buckets to use ({@code dist_num}), at least 1
     * @return the mixture, or the uniform density when no bucket is usable
     * @throws IllegalArgumentException if the arrays differ in length or distNum is below 1
     */
    public static Density normBased(double[] bucketMeans, double[] bucketStds, double[] bucketNorms, int distNum) {
        return normBased(bucketMeans, bucketStds, bucketNorms, distNum, 1);
    }

    /**
     * The norm-based fit with its normals truncated to [-interval, interval]; otherwise as
     * {@link #normBased(double[], double[], double[], int)}.
     *
     * @throws IllegalArgumentException also if interval is outside (0, 1]
     */
    public static Density normBased(double[] bucketMeans, double[] bucketStds, double[] bucketNorms, int distNum,
                                    double interval) {
        double t = checkInterval(interval);
        int n = bucketNorms.length;
        if (bucketMeans.length != n || bucketStds.length != n) {
            throw new IllegalArgumentException("bucketMeans, bucketStds and bucketNorms must be equally long, found "
                    + bucketMeans.length + ", " + bucketStds.length + " and " + n);
        }
        if (distNum < 1) {
            throw new IllegalArgumentException("distNum must be at least 1, found " + distNum);
        }
        boolean[] usable = new boolean[n];
        double[] norms = new double[n];
        int usableCount = 0;
        for (int i = 0; i < n; i++) {
            usable[i] = bucketNorms[i] > 0 && Double.isFinite(bucketNorms[i]) && bucketStds[i] >= MIN_STD
                    && TruncatedNormal.hasMass(bucketMeans[i], bucketStds[i], -t, t);
            if (usable[i]) {
                norms[usableCount++] = bucketNorms[i];
            }
        }
        int k = Math.min(distNum, usableCount);
        if (k == 0) {
            return UNIFORM;
        }
        double[] sorted = Arrays.copyOf(norms, usableCount);
        Arrays.sort(sorted);
        double cut = sorted[usableCount - k];
        int above = 0;
        for (int i = 0; i < usableCount; i++) {
            if (sorted[i] > cut) {
                above++;
            }
        }
        int tiesAllowed = k - above;
        Density[] parts = new Density[k];
        double[] weights = new double[k];
        double total = 0;
        int m = 0;
        for (int i = 0; i < n && m < k; i++) {
            if (!usable[i] || bucketNorms[i] < cut || (bucketNorms[i] == cut && tiesAllowed-- <= 0)) {
                continue;
            }
            parts[m] = new TruncatedNormal(bucketMeans[i], bucketStds[i], -t, t);
            weights[m] = bucketNorms[i];
            total += bucketNorms[i];
            m++;
        }
        for (int i = 0; i < k; i++) {
            weights[i] /= total;
        }
        return k == 1 ? parts[0] : new Mixture(parts, normaliseSum(weights));
    }

    /** Removes the rounding left in a sum of weights so {@link Mixture} accepts it exactly. */
    private static double[] normaliseSum(double[] weights) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        for (int i = 0; i < weights.length; i++) {
            weights[i] /= sum;
        }
        return weights;
    }

    private static Density truncatedOrUniform(double mean, double std, double t) {
        if (!(std >= MIN_STD) || !TruncatedNormal.hasMass(mean, std, -t, t)) {
            return UNIFORM;
        }
        return new TruncatedNormal(mean, std, -t, t);
    }

    private static double checkInterval(double interval) {
        if (!(interval > 0 && interval <= 1)) {
            throw new IllegalArgumentException("interval must be in (0, 1], found " + interval);
        }
        return interval;
    }
}
