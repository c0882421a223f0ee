package org.gridrun.jobs.slurm;

import java.util.Objects;
import java.util.Set;

/**
 * One job, or one task of a job array, as squeue lists it.
 *
 * @param jobId  the array's job id for an array task (what sbatch printed), else the job id
 * @param taskId the array task index, or {@link #NOT_AN_ARRAY} for a job that is not an array
 * @param state  squeue's long state name: PENDING, CONFIGURING, RUNNING, COMPLETING, SUSPENDED, ...
 * @param user   the user who owns the job
 */
public record QueuedTask(String jobId, int taskId, String state, String user) {
    /** The task id of a job that is not an array. */
    public static final int NOT_AN_ARRAY = -1;

    /**
     * The states of a job that has ended. squeue lists them only when asked for with {@code --states}; every other
     * state, one this list does not know included, counts as in flight.
     */
    private static final Set<String> ENDED = Set.of("COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL",
            "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED", "SPECIAL_EXIT");

    public QueuedTask {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(user, "user");
        if (taskId < NOT_AN_ARRAY) {
            throw new IllegalArgumentException("taskId must be >= 0, or -1 for a job that is not an array, found "
                    + taskId);
        }
    }

    /** Whether this is a task of a job array. */
    public boolean isArrayTask() {
        return taskId != NOT_AN_ARRAY;
    }

    /** The id scancel and scontrol accept for this task alone: {@code 123_4}, or {@code 456}. */
    public String id() {
        return isArrayTask() ? jobId + "_" + taskId : jobId;
    }

    /**
     * Whether the task has not ended: queued or requeued, starting (CONFIGURING), running, or ending (COMPLETING,
     * whose processes may still run).
     */
    public boolean inFlight() {
        return !ENDED.contains(state);
    }
}
