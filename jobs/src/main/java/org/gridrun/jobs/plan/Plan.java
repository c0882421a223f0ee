package org.gridrun.jobs.plan;

import java.util.List;

/**
 * The experiments of one {@code grid-run} invocation, in grid order, each marked to run or to skip.
 *
 * @param grid        the grid name
 * @param experiments every expanded experiment
 */
public record Plan(String grid, List<PlannedExperiment> experiments) {
    public Plan {
        experiments = List.copyOf(experiments);
    }

    /** The experiments that will run. */
    public List<PlannedExperiment> toRun() {
        return experiments.stream().filter(PlannedExperiment::toRun).toList();
    }

    /** How many experiments are skipped because they already completed. */
    public int completed() {
        return experiments.size() - toRun().size();
    }
}
