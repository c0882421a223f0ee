package org.gridrun.grids;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A validated run: what {@link Expander} needs to list its experiments, and how its jobs are scheduled.
 *
 * @param name     the run's name
 * @param prefix   the start of every experiment name
 * @param exclude  keys left out of experiment names
 * @param subGrids the sub-grids in order, each with defaults merged and seeds last
 * @param slurm    the run's own {@code slurm:} block, merged over the file's by {@link GridFile#slurm}
 * @param after    the run's dependencies as written
 */
record RunSpec(String name, String prefix, Set<String> exclude, List<SubGrid> subGrids, SlurmBlock slurm,
               List<AfterReader.After> after) {

    RunSpec {
        exclude = Set.copyOf(exclude);
        subGrids = List.copyOf(subGrids);
        after = List.copyOf(after);
    }

    /** Every key that some experiment of the run may set. */
    Set<String> keys() {
        Set<String> keys = new LinkedHashSet<>();
        subGrids.forEach(sub -> sub.axes().forEach(axis -> keys.addAll(axis.keys().keySet())));
        return keys;
    }

    /** The number of combinations before identical configs merge, saturating at {@code Long.MAX_VALUE}. */
    long size() {
        long size = 0;
        for (SubGrid sub : subGrids) {
            size = sub.size() > Long.MAX_VALUE - size ? Long.MAX_VALUE : size + sub.size();
        }
        return size;
    }
}
