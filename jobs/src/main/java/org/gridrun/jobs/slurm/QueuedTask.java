package org.gridrun.jobs.slurm;

/** TEMPORARY stand-in until the slurm branch lands (same signature). */
public record QueuedTask(String jobId, int taskId, String state, String user) {
}
