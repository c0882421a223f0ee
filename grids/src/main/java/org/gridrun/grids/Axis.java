package org.gridrun.grids;

import java.util.List;
import org.gridrun.grids.yaml.Scalar;

/**
 * One key of a sub-grid and the values it takes, in order.
 *
 * @param key    the key as written, with its place
 * @param values the values as written, at least one
 */
record Axis(Scalar key, List<Scalar> values) {

    Axis {
        values = List.copyOf(values);
    }

    String name() {
        return key.text();
    }
}
