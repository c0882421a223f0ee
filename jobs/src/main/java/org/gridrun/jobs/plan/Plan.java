package org.gridrun.jobs.plan;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.gridrun.engine.run.RunState;

/**
 * The experiments of one {@code grid-run} invocation, in grid order, each marked to run or to skip, and what each
 * waits for.
 *
 * @param grid        the grid name
 * @param experiments every expanded experiment of the planned runs
 * @param graph       their dependencies
 * @param rerun       empty: run what each experiment's state calls for; else run exactly the experiments in these
 *                    states (a resubmission) that {@code where} takes
 * @param where       the experiments a resubmission is limited to
 */
public record Plan(String grid, List<PlannedExperiment> experiments, JobGraph graph, Set<RunState> rerun,
                   ExperimentFilter where) {
    public Plan {
        experiments = List.copyOf(experiments);
        rerun = rerun.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(rerun));
    }

    /** A plan that runs what {@link PlannedExperiment#toRun()} says. */
    public Plan(String grid, List<PlannedExperiment> experiments, JobGraph graph) {
        this(grid, experiments, graph, Set.of(), ExperimentFilter.all());
    }

    /** A plan without dependencies. */
    public Plan(String grid, List<PlannedExperiment> experiments) {
        this(grid, experiments, JobGraph.of(experiments, List.of()));
    }

    /**
     * This plan, running only the experiments whose known state is one of {@code states} and that {@code where}
     * takes (a resubmission).
     */
    public Plan rerunning(Set<RunState> states, ExperimentFilter where) {
        if (states.isEmpty()) {
            throw new IllegalArgumentException("a resubmission needs at least one state to rerun");
        }
        return new Plan(grid, experiments, graph, states, where);
    }

    /** Whether this plan runs {@code e}. */
    public boolean runs(PlannedExperiment e) {
        return rerun.isEmpty() ? e.toRun() : e.known() != null && rerun.contains(e.known()) && where.test(e);
    }

    /** The experiments that will run, in an order where each comes after what it waits for. */
    public List<PlannedExperiment> toRun() {
        return graph.topologicalOrder().stream().filter(this::runs).toList();
    }

    /** How many experiments completed before this plan. */
    public int completed() {
        return (int) experiments.stream().filter(e -> e.known() == RunState.COMPLETED).count();
    }
}
