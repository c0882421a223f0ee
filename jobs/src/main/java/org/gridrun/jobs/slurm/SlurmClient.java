package org.gridrun.jobs.slurm;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/** TEMPORARY stand-in until the slurm branch lands (same signatures). */
public interface SlurmClient {
    boolean available();

    String submit(List<String> sbatchOptions, Path sbatchFile);

    List<QueuedTask> queue(Collection<String> jobIds);

    void cancel(Collection<String> jobIdsOrTasks);

    ClusterLimits limits();
}
