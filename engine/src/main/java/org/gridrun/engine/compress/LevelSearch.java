package org.gridrun.engine.compress;

import org.gridrun.engine.backend.LevelSearchTable;

/**
 * Finds the two levels around a scaled value in constant time for any sorted levels in [-1, 1], and rounds between
 * them without bias.
 *
 * <p>[-1, 1] is cut into {@link #CELLS} equal cells; each keeps the highest level at or below its left edge and the
 * lowest at or above its right edge, so a value's neighbours lie between those two, almost always adjacent already.
 * Where levels crowd inside one cell (exponential levels near zero) a binary search between them finishes the job.
 */
final class LevelSearch {
    /** Cells over [-1, 1]. */
    static final int CELLS = 2048;

    private final double[] levels;
    /** {@code 1 / (l_{j+1} − l_j)}. */
    private final double[] inverseGap;
    private final int[] below;
    private final int[] above;

    /** The table of {@code levels}: sorted, strictly increasing, in [-1, 1], at least two. */
    LevelSearch(double[] levels) {
        this.levels = levels.clone();
        int top = levels.length - 1;
        inverseGap = new double[top];
        for (int j = 0; j < top; j++) {
            inverseGap[j] = 1.0 / (levels[j + 1] - levels[j]);
        }
        below = new int[CELLS];
        above = new int[CELLS];
        int lo = 0;
        int hi = 0;
        for (int c = 0; c < CELLS; c++) {
            double left = -1.0 + 2.0 * c / CELLS;
            double right = -1.0 + 2.0 * (c + 1) / CELLS;
            while (lo < top && levels[lo + 1] <= left) {
                lo++;
            }
            while (hi < top && levels[hi] < right) {
                hi++;
            }
            below[c] = lo;
            above[c] = Math.max(hi, lo);
        }
    }

    /** The tables, for a device that searches as {@link #index} does. */
    LevelSearchTable table() {
        return new LevelSearchTable(inverseGap.clone(), below.clone(), above.clone());
    }

    /**
     * The level index for scaled value {@code r} and a 16-bit uniform {@code u}: the upper of its two neighbours
     * {@code l_j ≤ r ≤ l_{j+1}} when {@code (r − l_j)/(l_{j+1} − l_j) + u/2^16 ≥ 1}, else the lower; a value below
     * the first level (or NaN) gives 0, one above the last the top index.
     */
    int index(double r, int u) {
        double[] l = levels;
        int top = l.length - 1;
        if (!(r > l[0])) {
            return 0;
        }
        if (r >= l[top]) {
            return top;
        }
        int c = Math.min((int) ((r + 1.0) * (CELLS / 2)), CELLS - 1);
        int lo = below[c];
        int hi = above[c];
        while (lo > 0 && l[lo] > r) {
            lo--;
        }
        while (hi < top && l[hi] < r) {
            hi++;
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (l[mid] <= r) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo + (int) ((r - l[lo]) * inverseGap[lo] + u * 0x1.0p-16);
    }
}
