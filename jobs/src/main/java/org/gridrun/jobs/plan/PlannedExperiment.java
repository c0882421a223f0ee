package org.gridrun.jobs.plan;

import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;

/**
 * One experiment of a plan: what it is, where it runs, and what the plan does with it.
 *
 * @param record the resolved experiment
 * @param dir    its run directory
 * @param known  its state before this plan (from its run directory or the store); null when new
 */
public record PlannedExperiment(ExperimentRecord record, RunDir dir, RunState known) {

    /**
     * Whether the plan runs it: not when it completed, not when it diverged (the same config diverges again; resubmit
     * with {@code --diverged} to insist), and not while it is queued or running already.
     */
    public boolean toRun() {
        return known == null || known != RunState.COMPLETED && known != RunState.DIVERGED && !known.isInFlight();
    }

    /** The configured number of training iterations, for progress. */
    public long iterations() {
        Object niters = record.config().get("niters");
        return niters instanceof Number n ? n.longValue() : 0L;
    }
}
