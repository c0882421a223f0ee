package org.gridrun.engine.compress;

import java.util.Arrays;

/**
 * Exact top-k by magnitude in O(n) average time: quickselect on {@code |g|} over reusable arrays.
 *
 * <p>Values are ordered by magnitude, larger first, and equal magnitudes by position, lower first, so the selected
 * set is unique and does not depend on the pivots. NaN counts as the largest magnitude (it is never hidden). The
 * arrays grow on the first call of a given length and are reused after; a call allocates nothing.
 */
final class TopKSelector {
    private float[] magnitude = new float[0];
    private int[] order = new int[0];

    /**
     * The positions (relative to {@code offset}) of the {@code k} largest {@code |g|} of {@code g[offset … offset + n)},
     * ascending, in the first {@code k} slots of the returned array (a view reused by the next call).
     */
    int[] select(float[] g, int offset, int n, int k) {
        if (magnitude.length < n) {
            magnitude = new float[n];
            order = new int[n];
        }
        for (int i = 0; i < n; i++) {
            magnitude[i] = Math.abs(g[offset + i]);
            order[i] = i;
        }
        if (k < n) {
            selectFirst(n, k);
        }
        Arrays.sort(order, 0, k);
        return order;
    }

    /** Rearranges {@code order[0 … n)} so that its first {@code k} slots hold the {@code k} first in rank. */
    private void selectFirst(int n, int k) {
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            int p = partition(lo, hi, medianOfThree(lo, (lo + hi) >>> 1, hi));
            if (p == k - 1 || p == k) {
                return;
            } else if (p < k) {
                lo = p + 1;
            } else {
                hi = p - 1;
            }
        }
    }

    /** Lomuto partition of {@code order[lo … hi]} around slot {@code pivot}; returns the pivot's final slot. */
    private int partition(int lo, int hi, int pivot) {
        swap(pivot, hi);
        int p = order[hi];
        int store = lo;
        for (int i = lo; i < hi; i++) {
            if (before(order[i], p)) {
                swap(i, store++);
            }
        }
        swap(store, hi);
        return store;
    }

    private int medianOfThree(int a, int b, int c) {
        int x = order[a];
        int y = order[b];
        int z = order[c];
        if (before(x, y)) {
            return before(y, z) ? b : before(x, z) ? c : a;
        }
        return before(x, z) ? a : before(y, z) ? c : b;
    }

    /** Whether position {@code i} ranks before position {@code j}: larger magnitude, or equal and lower index. */
    private boolean before(int i, int j) {
        int c = Float.compare(magnitude[i], magnitude[j]);
        return c > 0 || c == 0 && i < j;
    }

    private void swap(int i, int j) {
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}
