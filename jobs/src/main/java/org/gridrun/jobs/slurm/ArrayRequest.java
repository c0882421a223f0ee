package org.gridrun.jobs.slurm;

import java.util.List;
import java.util.Objects;
import org.gridrun.grids.SlurmSpec;

/**
 * Everything one sbatch job array file says: which task scripts it runs, what it asks the cluster for, and how a
 * job finds Java and gridrun on the compute node.
 *
 * @param grid         the grid name
 * @param run          the named run
 * @param scriptPrefix the task scripts' path prefix relative to {@code workdir}: {@code jobs/<prefix>}
 * @param sbatchFile   this file's path relative to {@code workdir}
 * @param firstScript  the script array task 0 runs; task {@code i} runs script {@code firstScript + i}
 * @param tasks        the number of array tasks
 * @param concurrent   the most tasks running at once ({@code %T}); 0 for no limit
 * @param partition    the partition from {@code --cluster-args}, or null for the grid's {@code slurm: partition}
 * @param spec         the grid's {@code slurm:} block, merged over the run's
 * @param workdir      the absolute working directory the job runs in
 * @param java         the java executable, used unless the node sets {@code $GRIDRUN_JAVA}
 * @param classpath    gridrun's class path (the shaded jar), used unless the node sets {@code $GRIDRUN_CLASSPATH}
 * @param version      the gridrun version writing the file
 */
public record ArrayRequest(String grid, String run, String scriptPrefix, String sbatchFile, int firstScript,
                           int tasks, int concurrent, String partition, SlurmSpec spec, String workdir, String java,
                           String classpath, String version) {
    public ArrayRequest {
        Objects.requireNonNull(scriptPrefix, "scriptPrefix");
        Objects.requireNonNull(spec, "spec");
        if (tasks < 1) {
            throw new IllegalArgumentException("an array needs at least one task, found " + tasks);
        }
    }

    /** The sbatch log file pattern, one file per array task, appended to across requeues. */
    public String logPattern() {
        return "jobs/log/" + baseName() + "_%A_%a.log";
    }

    /** The job name: the grid's {@code job-name}, else {@code <grid>-<run>}. */
    public String jobName() {
        return spec.options().getOrDefault("job-name", grid + "-" + run);
    }

    private String baseName() {
        int slash = scriptPrefix.lastIndexOf('/');
        return slash < 0 ? scriptPrefix : scriptPrefix.substring(slash + 1);
    }

    /** The script of array task {@code task}. */
    public String script(int task) {
        return scriptPrefix + "_" + (firstScript + task) + ".sh";
    }

    /** Options not taken from the spec's mapping: these are written by gridrun itself. */
    static final List<String> OWN_OPTIONS = List.of("job-name", "output", "open-mode", "array", "chdir", "signal",
            "requeue", "partition");
}
