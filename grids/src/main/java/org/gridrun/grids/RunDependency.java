package org.gridrun.grids;

import java.util.List;
import java.util.Objects;

/**
 * That a run's experiments wait for experiments of another run of the same grid, as its {@code after:} says.
 *
 * <p>With no {@code match} keys, each experiment of the dependent run waits for every experiment of {@code run}.
 * With match keys, it waits for those experiments of {@code run} whose params hold the same values for every
 * match key as its own (compared as {@link Experiment#params()} holds them). The grid checks that both runs set
 * every match key; whether the dependencies form a cycle is for the caller to find.
 *
 * @param run   the run waited for, a run of the same grid
 * @param match the keys whose values must agree, in the order written; empty for all experiments of {@code run}
 */
public record RunDependency(String run, List<String> match) {

    /** Checks the run and copies the keys. */
    public RunDependency {
        Objects.requireNonNull(run, "run");
        match = List.copyOf(match);
    }
}
