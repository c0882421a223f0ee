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
 * The arrays grow on the first call of a given length and are reused after; a call allocates nothing.
 */
final class TopKSelector {
    private static final int NAN_KEY = 0x7F800001;

    private final int[] high = new int[1 << 15];
    private final int[] low = new int[1 << 16];
    private int[] order = new int[0];

    /** The rank key of {@code v}: the bits of {@code |v|}, every NaN one above infinity. */
    static int key(float v) {
        return Math.min(Float.floatToRawIntBits(v) & 0x7FFFFFFF, NAN_KEY);
    }

    /**
     * The positions (relative to {@code offset}) of the {@code k} largest {@code |g|} of {@code g[offset … offset + n)},
     * ascending, in the first {@code k} slots of the returned array (a view reused by the next call).
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
        return collect(g, offset, n, top << 16 | bottom, k - above);
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
