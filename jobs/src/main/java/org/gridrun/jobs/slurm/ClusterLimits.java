package org.gridrun.jobs.slurm;

import java.util.OptionalInt;

/** TEMPORARY stand-in until the slurm branch lands (same signature). */
public record ClusterLimits(OptionalInt maxArraySize, OptionalInt maxSubmitJobs, OptionalInt maxJobCount) {
    public int maxTasksPerArray() {
        int max = maxArraySize.orElse(1000);
        return maxSubmitJobs.isPresent() ? Math.min(max, maxSubmitJobs.getAsInt()) : max;
    }
}
