package org.gridrun.jobs.slurm;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/**
 * The few SLURM commands the slurm executor needs: submit, look at the queue, cancel, and read the limits.
 *
 * <p>Call {@link #available()} first: it is the one method that never throws, so an executor can say "no SLURM
 * here" instead of failing on its first submission. Every other method throws {@link SlurmException} when the
 * command fails or does not answer; the message quotes what the command printed. Job ids are strings as sbatch
 * prints them ({@code 123}); a task of an array is {@code 123_4}.
 */
public interface SlurmClient {

    /** Whether a SLURM controller answers within a few seconds ({@code sinfo}); never throws. */
    boolean available();

    /**
     * Submits {@code sbatchFile} with {@code sbatch --parsable <sbatchOptions> <sbatchFile>}.
     *
     * @return the job id, without the {@code ;cluster} suffix of a multi-cluster setup
     */
    String submit(List<String> sbatchOptions, Path sbatchFile);

    /**
     * The jobs and array tasks of {@code jobIds} that are still in the queue (pending, configuring, running,
     * completing, ...), one entry per array task; a job that has ended, or that the controller has forgotten,
     * is simply absent. Lines of other users or other jobs are left out.
     */
    List<QueuedTask> queue(Collection<String> jobIds);

    /** Cancels jobs ({@code 123}) or single array tasks ({@code 123_4}); ids that have already ended are ignored. */
    void cancel(Collection<String> jobIdsOrTasks);

    /** The limits on job arrays and on this user's queued jobs, as far as the cluster tells them. */
    ClusterLimits limits();
}
