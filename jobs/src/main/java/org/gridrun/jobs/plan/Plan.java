package org.gridrun.jobs.plan;

import java.util.List;

/**
 * The experiments of one {@code grid-run} invocation, in grid order, each marked to run or to skip, and what each
 * waits for.
 *
 * @param grid        the grid name
 * @param experiments every expanded experiment of the planned runs
 * @param graph       their dependencies
 */
public record Plan(String grid, List<PlannedExperiment> experiments, JobGraph graph) {
    public Plan {
        experiments = List.copyOf(experiments);
    }

    /** A plan without dependencies. */
    public Plan(String grid, List<PlannedExperiment> experiments) {
        this(grid, experiments, JobGraph.of(experiments, List.of()));
    }

    /** The experiments that will run, in an order where each comes after what it waits for. */
    public List<PlannedExperiment> toRun() {
        return graph.topologicalOrder().stream().filter(PlannedExperiment::toRun).toList();
    }

    /** How many experiments are skipped: completed, diverged, or queued or running already. */
    public int skipped() {
        return experiments.size() - (int) experiments.stream().filter(PlannedExperiment::toRun).count();
    }

    /** How many experiments completed before this plan. */
    public int completed() {
        return (int) experiments.stream().filter(e -> e.known() == org.gridrun.engine.run.RunState.COMPLETED).count();
    }
}
