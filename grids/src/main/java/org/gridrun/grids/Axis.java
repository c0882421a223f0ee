package org.gridrun.grids;

import java.util.List;
import java.util.Map;
import org.gridrun.grids.yaml.Mark;
import org.gridrun.grids.yaml.Scalar;

/**
 * One axis of a sub-grid: a key with its values (overrides included), or a zip group, and the points it spans.
 *
 * <p>A sub-grid is the product of its axes. A default's axis gives way to a sub-grid's axis of the same
 * {@link #mainKey}; a zip group has none and never gives way as a whole.
 *
 * @param key     the key as written, with its place ({@code zip} for a zip group)
 * @param mainKey the key whose values the axis lists, or null for a zip group
 * @param space   the points of the axis in order, at least one when the grid is valid
 */
record Axis(Scalar key, String mainKey, Space space) {

    List<Setting[]> points() {
        return space.points();
    }

    /** Every key a point of the axis sets, with where it was written. */
    Map<String, Mark> keys() {
        return space.keys();
    }
}
