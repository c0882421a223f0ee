package org.gridrun.jobs.local;

import java.util.List;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.jobs.plan.PlannedExperiment;

/**
 * What an executor tells about a run in progress; implementations draw progress for a person.
 *
 * <p>Calls come from one thread in this order: {@link #started} once, then any number of {@link #progress} and
 * {@link #finished}, then {@link #closed} once.
 */
public interface RunObserver {
    /** The executor is about to start {@code jobs} experiments of {@code totalSteps} iterations in all. */
    void started(int jobs, long totalSteps);

    /** {@code doneSteps} of all iterations are done; {@code running} are the experiments running now. */
    void progress(long doneSteps, List<PlannedExperiment> running);

    /** One experiment ended in {@code entry}'s state after {@code seconds}; {@code summary} is a short result. */
    void finished(PlannedExperiment experiment, StatusEntry entry, double seconds, String summary);

    /** The run is over. */
    void closed();
}
