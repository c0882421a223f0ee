package org.gridrun.analysis;

import java.time.Instant;
import java.util.Objects;

/**
 * One batch submission to a scheduler: an sbatch job array that runs scripts {@code firstScript} to
 * {@code firstScript + tasks - 1} of a run, task {@code i} running script {@code firstScript + i}.
 *
 * @param jobId        the scheduler's job id of the array
 * @param grid         the grid name
 * @param run          the named run
 * @param scriptPrefix the path prefix of the task scripts: script {@code k} is {@code <scriptPrefix>_<k>.sh}
 * @param sbatchFile   the submitted sbatch file
 * @param firstScript  the index of the script array task 0 runs
 * @param tasks        the number of array tasks
 * @param experiments  the number of experiments the tasks run
 * @param dependsOn    the job ids it waits for ({@code afterok}), comma separated; empty when none
 * @param submitted    when it was submitted
 */
public record Submission(String jobId, String grid, String run, String scriptPrefix, String sbatchFile,
                         int firstScript, int tasks, int experiments, String dependsOn, Instant submitted) {
    public Submission {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(scriptPrefix, "scriptPrefix");
        dependsOn = dependsOn == null ? "" : dependsOn;
    }
}
