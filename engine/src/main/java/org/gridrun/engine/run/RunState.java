package org.gridrun.engine.run;

/**
 * The life of one experiment attempt, as recorded in its run directory's {@code status} file and in the store.
 *
 * <p>STAGED → QUEUED → RUNNING → COMPLETED | FAILED | KILLED | DIVERGED | PREEMPTED, and PREEMPTED → QUEUED when a
 * preempted job requeues itself.
 */
public enum RunState {
    /** The run directory and its {@code experiment.yaml} exist; nothing was submitted. */
    STAGED,
    /** Handed to an executor (local pool or SLURM) and waiting for a slot. */
    QUEUED,
    /** The trainer has started. */
    RUNNING,
    /** The trainer finished every step. */
    COMPLETED,
    /** The trainer or its process stopped with an error. */
    FAILED,
    /** Cancelled by the user, or gone from the scheduler without finishing. */
    KILLED,
    /** The loss became NaN or infinite. */
    DIVERGED,
    /** The scheduler preempted the job; it checkpointed and will be queued again. */
    PREEMPTED;

    /** Whether no further transition is expected without a user action (resubmit). */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == KILLED || this == DIVERGED;
    }

    /** Whether the experiment is submitted and not yet finished. */
    public boolean isInFlight() {
        return this == QUEUED || this == RUNNING || this == PREEMPTED;
    }
}
