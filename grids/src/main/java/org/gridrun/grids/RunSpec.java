package org.gridrun.grids;

import java.util.List;
import java.util.Set;

/**
 * A validated run: what {@link Expander} needs to list its experiments.
 *
 * @param name     the run's name
 * @param prefix   the start of every experiment name
 * @param exclude  keys left out of experiment names
 * @param subGrids the sub-grids in order, each its axes in key order with defaults merged and seeds last
 */
record RunSpec(String name, String prefix, Set<String> exclude, List<List<Axis>> subGrids) {

    RunSpec {
        exclude = Set.copyOf(exclude);
        subGrids = subGrids.stream().map(List::copyOf).toList();
    }
}
