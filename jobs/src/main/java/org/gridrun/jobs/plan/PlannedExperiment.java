package org.gridrun.jobs.plan;

import org.gridrun.engine.data.DataSets;
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

    /**
     * The configured number of training iterations, for progress: {@code niters}, or {@code epochs} epochs of the
     * data set's published training size in batches of {@code batch_size} (the trainer's own count, estimated
     * without reading the data).
     */
    public long iterations() {
        long epochs = number("epochs");
        if (epochs > 0) {
            Object dataset = record.config().get("dataset");
            long batch = Math.max(1, number("batch_size"));
            long trainSize = DataSets.nominalTrainSize(String.valueOf(dataset));
            if (DataSets.isText(String.valueOf(dataset))) {
                // A language model's epoch: each worker's columns of the text in windows of bptt tokens.
                return epochs * Math.max(1, trainSize / (batch * Math.max(1, number("ngpu"))
                        * Math.max(1, number("bptt"))));
            }
            return epochs * ((trainSize + batch - 1) / batch);
        }
        return number("niters");
    }

    private long number(String key) {
        Object value = record.config().get(key);
        return value instanceof Number n ? n.longValue() : 0L;
    }
}
