package org.gridrun.engine.compress;

import java.util.Arrays;

/**
 * Exact top-k by magnitude in three linear passes: a radix selection of the k-th largest magnitude, then one scan
 * that collects the positions above it and, in position order, as many equal to it as are still wanted.
 *
 * <p>Values are ordered by magnitude, larger first, and equal magnitudes by position, lower first, so the selected
 * set is unique. Magnitudes are compared as the bits of {@code |g|}, which order non-negative floats as their values
 * do; every NaN counts as one magnitude above infinity (it is never hidden). The first pass counts the high 16 bits
 * of every magnitude, the second the low 16 bits of those in the high bucket holding the k-th, which then is exact.
 *
 * <p>A long vector of which few values are kept ({@value #SAMPLED_FROM} values or more, at most one in
 * {@value #SAMPLED_SHARE}) first takes a bound from {@value #SAMPLE} evenly spaced values: a magnitude that about
 * twice {@code k} values reach, by the sample. One pass collects the values at or above it, in position order, and
 * the three passes then run on those alone. Where fewer than {@code k} reach the bound (a sample that saw the large
 * values and missed the rest), or many more than {@code 8k} (many equal magnitudes, or a sample that missed the
 * large values), the three passes run on the whole vector. Either way the set is the one defined above. The arrays
 * grow on the first calls and are reused after.
 */
final class TopKSelector {
    /** Vectors at least this long, of which at most one value in {@link #SAMPLED_SHARE} is kept, are sampled first. */
    static final int SAMPLED_FROM = 1 << 16;
    static final int SAMPLED_SHARE = 16;
    /** The sampled values. */
    static final int SAMPLE = 1 << 13;
    private static final int NAN_KEY = 0x7F800001;

    private final int[] high = new int[1 << 15];
    private final int[] low = new int[1 << 16];
    private final float[] sample = new float[SAMPLE];
    private int[] order = new int[0];
    private float[] candidates = new float[0];
    private int[] positions = new int[0];
    /** Whether the last {@link #select} took the sampled bound (for the tests of both ways). */
    private boolean sampled;
    /** How many keys the last {@link #kthKey} found above the one it returned. */
    private int above;

    /** The rank key of {@code v}: the bits of {@code |v|}, every NaN one above infinity. */
    static int key(float v) {
        return Math.min(Float.floatToRawIntBits(v) & 0x7FFFFFFF, NAN_KEY);
    }

    /**
     * The positions (relative to {@code offset}) of the {@code k} largest {@code |g|} of
     * {@code g[offset … offset + n)}, ascending, in the first {@code k} slots of the returned array (a view reused by
     * the next call).
     */
    int[] select(float[] g, int offset, int n, int k) {
        if (order.length < k) {
            order = new int[k];
        }
        if (k >= n) {
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            return order;
        }
        if (k == 0) {
            return order;
        }
        sampled = false;
        if (n >= SAMPLED_FROM && k <= n / SAMPLED_SHARE) {
            int reached = reaching(g, offset, n, bound(g, offset, n, k), 8 * k + 1024);
            if (reached >= k) {
                sampled = true;
                radix(candidates, 0, reached, k);
                for (int j = 0; j < k; j++) {
                    order[j] = positions[order[j]];
                }
                return order;
            }
        }
        return radix(g, offset, n, k);
    }

    /** Whether the last {@link #select} selected among the values that reached a sampled bound. */
    boolean sampledLast() {
        return sampled;
    }

    /**
     * A magnitude key that about {@code 2k} of the {@code n} values reach, by {@link #SAMPLE} values at even steps: the
     * sample's key of rank {@code 2k·SAMPLE/n} plus three standard deviations of that count, from the top
     * ({@link #kthKey} on the sample).
     */
    private int bound(float[] g, int offset, int n, int k) {
        long step = n / SAMPLE;
        for (int s = 0; s < SAMPLE; s++) {
            sample[s] = g[offset + (int) (s * step)];
        }
        double expected = 2.0 * k * SAMPLE / n;
        int rank = (int) Math.min(SAMPLE, Math.ceil(expected + 3 * Math.sqrt(expected)) + 1);
        return kthKey(sample, 0, SAMPLE, rank);
    }

    /**
     * Collects the values of {@code g[offset … offset + n)} whose key is {@code bound} or more into
     * {@link #candidates}, their positions into {@link #positions}, in position order; returns how many, or -1 as soon
     * as more than {@code most} reach it (a sample that missed the large values, or many equal ones).
     */
    private int reaching(float[] g, int offset, int n, int bound, int most) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            float v = g[offset + i];
            // bound is at most NAN_KEY, so every NaN reaches it, as key() ranks them
            if ((Float.floatToRawIntBits(v) & 0x7FFFFFFF) >= bound) {
                if (m == most) {
                    return -1;
                }
                if (m == candidates.length) {
                    int grown = Math.max(1024, 2 * m);
                    candidates = Arrays.copyOf(candidates, grown);
                    positions = Arrays.copyOf(positions, grown);
                }
                candidates[m] = v;
                positions[m++] = i;
            }
        }
        return m;
    }

    /** The three passes over {@code g[offset … offset + n)}: the positions of its {@code k} largest, into order. */
    private int[] radix(float[] g, int offset, int n, int k) {
        int threshold = kthKey(g, offset, n, k);
        return collect(g, offset, n, threshold, k - above);
    }

    /**
     * The {@code k}-th largest magnitude of {@code g[offset … offset + n)} ({@code 1 ≤ k ≤ n}) in two histogram passes:
     * what {@code Arrays.sort} of the magnitudes puts {@code k}-th from the end, every NaN above infinity (a NaN where
     * fewer than {@code k} values are numbers).
     */
    float kthLargestMagnitude(float[] g, int offset, int n, int k) {
        return Float.intBitsToFloat(kthKey(g, offset, n, k));
    }

    /** The key of the {@code k}-th largest of {@code g[offset … offset + n)}; {@link #above} counts those above it. */
    private int kthKey(float[] g, int offset, int n, int k) {
        Arrays.fill(high, 0);
        for (int i = 0; i < n; i++) {
            high[key(g[offset + i]) >>> 16]++;
        }
        int above = 0;
        int top = high.length - 1;
        while (above + high[top] < k) {
            above += high[top--];
        }
        Arrays.fill(low, 0);
        for (int i = 0; i < n; i++) {
            int key = key(g[offset + i]);
            if (key >>> 16 == top) {
                low[key & 0xFFFF]++;
            }
        }
        int bottom = low.length - 1;
        while (above + low[bottom] < k) {
            above += low[bottom--];
        }
        this.above = above;
        return top << 16 | bottom;
    }

    /** The positions of magnitudes above {@code threshold} and of the first {@code ties} equal to it, ascending. */
    private int[] collect(float[] g, int offset, int n, int threshold, int ties) {
        int m = 0;
        int left = ties;
        for (int i = 0; i < n; i++) {
            int key = key(g[offset + i]);
            if (key > threshold || key == threshold && left-- > 0) {
                order[m++] = i;
            }
        }
        return order;
    }
}
