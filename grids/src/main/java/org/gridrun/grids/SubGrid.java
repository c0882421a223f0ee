package org.gridrun.grids;

import java.util.List;

/**
 * A sub-grid ready to expand: its axes with the defaults merged under them and the seeds last, each with the
 * precedence of where it was written.
 *
 * <p>When two axes can set the same key (a default and a sub-grid's override, say), the setting of higher
 * precedence wins for each experiment and the key keeps the place where it first appears.
 *
 * @param axes        the axes in order, the last varying fastest
 * @param levels      each axis's precedence: defaults by file (an including file above the files it includes), then
 *                    the sub-grid's own keys, then the run's seeds
 * @param overlapping whether two axes can set the same key, so that experiments need precedence applied
 */
record SubGrid(List<Axis> axes, int[] levels, boolean overlapping) {
    /** The precedence of a sub-grid's own keys, above every file's defaults. */
    static final int OWN = Integer.MAX_VALUE - 1;
    /** The precedence of a run's seeds. */
    static final int SEEDS = Integer.MAX_VALUE;

    SubGrid {
        axes = List.copyOf(axes);
        levels = levels.clone();
    }

    /** The number of points: the product of the axes' sizes, saturating at {@code Long.MAX_VALUE}. */
    long size() {
        long size = 1;
        for (Axis axis : axes) {
            int n = axis.points().size();
            size = n != 0 && size > Long.MAX_VALUE / n ? Long.MAX_VALUE : size * n;
        }
        return size;
    }
}
