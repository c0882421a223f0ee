package org.gridrun.jobs.slurm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;

/** A SLURM that records what it is asked and holds submitted arrays in its queue until they are finished. */
final class FakeSlurm implements SlurmClient {
    final List<String> submitted = new ArrayList<>();
    final List<QueuedTask> queue = new ArrayList<>();
    final List<String> cancelled = new ArrayList<>();
    int maxArraySize = 1001;
    int refuseAfter = Integer.MAX_VALUE;
    private int nextId = 100;

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public String submit(List<String> sbatchOptions, Path sbatchFile) {
        if (submitted.size() >= refuseAfter) {
            throw new SlurmException("sbatch: error: QOSMaxSubmitJobPerUserLimit");
        }
        String id = String.valueOf(nextId++);
        submitted.add(id + " " + String.join(" ", sbatchOptions) + " " + sbatchFile.getFileName());
        queue.add(new QueuedTask(id, 0, "PENDING", "me"));
        return id;
    }

    @Override
    public List<QueuedTask> queue(Collection<String> jobIds) {
        return queue.stream().filter(t -> jobIds.contains(t.jobId())).toList();
    }

    @Override
    public void cancel(Collection<String> jobIdsOrTasks) {
        cancelled.addAll(jobIdsOrTasks);
    }

    @Override
    public ClusterLimits limits() {
        return new ClusterLimits(OptionalInt.of(maxArraySize), OptionalInt.empty(), OptionalInt.empty());
    }
}
