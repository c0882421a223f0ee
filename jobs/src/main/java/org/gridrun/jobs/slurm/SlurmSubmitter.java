package org.gridrun.jobs.slurm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.Submission;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.run.StatusFile;
import org.gridrun.grids.SlurmSpec;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.local.JobLauncher;
import org.gridrun.jobs.plan.PlannedExperiment;

/**
 * Writes the task scripts and sbatch files of one run's experiments and, when asked, submits them.
 *
 * <p>Files go to {@code <workdir>/jobs/}: {@code <prefix>_<k>.sh} and {@code <prefix>_slurm.sbatch} (one array), or
 * {@code <prefix>_slurm_<c>.sbatch} when the cluster's array limit splits them; each script line carries its
 * experiment ({@link ExperimentJson}); {@code jobs/log/} exists before anything is submitted. A prefix whose
 * scripts an array still in the queue runs is never overwritten: the next free {@code <prefix>-<n>} is used instead.
 *
 * <p>Run directories are not written here: each job stages its own from its script line when it starts, as the
 * seed's scripts made theirs, so that writing the scripts of 100,000 experiments takes seconds. Once sbatch accepted an
 * array, its experiments are recorded in the store as QUEUED with their array task as their job.
 */
public final class SlurmSubmitter {
    private static final Set<PosixFilePermission> EXECUTABLE = PosixFilePermissions.fromString("rwxr-xr-x");

    private final Workspace workspace;
    private final ResultsStore store;
    private final SlurmClient client;
    private final ClusterArgs args;
    private final String version;

    /**
     * @param client the cluster, or null when nothing is submitted (the scripts are only written)
     */
    public SlurmSubmitter(Workspace workspace, ResultsStore store, SlurmClient client, ClusterArgs args,
                          String version) {
        this.workspace = workspace;
        this.store = store;
        this.client = client;
        this.args = args;
        this.version = version;
    }

    /**
     * The arguments after {@code java} of a task script whose {@code parallel} experiments share the allocation's
     * memory; the node's {@code $GRIDRUN_JAVA_OPTS} come after gridrun's and override them.
     */
    static List<String> trainArguments(int parallel) {
        List<String> options = new ArrayList<>(JobLauncher.jvmOptions(parallel));
        options.add("$" + JobLauncher.USER_OPTIONS);
        return JobLauncher.trainArguments(options, "$GRIDRUN_CLASSPATH");
    }

    /** What was written and submitted for one run. */
    public record Result(String scriptPrefix, int scripts, List<Path> sbatchFiles, List<String> jobIds,
                         String notSubmitted) {
    }

    /**
     * Stages, writes and (with a client and {@code submit}) submits {@code experiments} of one run.
     *
     * @param baseName  the script prefix wanted, e.g. {@code nuq_mnist}; a busy one gets a {@code -<n>} suffix
     * @param afterJobs job ids every array of this run waits for ({@code --dependency=afterok:…}); may be empty
     */
    public Result write(String grid, String run, String baseName, List<PlannedExperiment> experiments,
                        SlurmSpec spec, List<String> afterJobs, boolean submit) {
        Path jobsDir = workspace.root().resolve("jobs");
        createDirectories(jobsDir.resolve("log"));
        String prefix = freePrefix(grid, baseName);
        List<List<PlannedExperiment>> scripts = ScriptLayout.roundRobin(experiments, args.scripts());
        int maxTasks = client == null ? ClusterLimits.DEFAULT_TASKS_PER_ARRAY : client.limits().maxTasksPerArray();
        List<ScriptLayout.Chunk> chunks = ScriptLayout.chunks(scripts.size(), maxTasks);
        String classpath = JobLauncher.classpath();
        List<Path> sbatchFiles = new ArrayList<>();
        List<ArrayRequest> requests = new ArrayList<>();
        for (int c = 0; c < chunks.size(); c++) {
            ScriptLayout.Chunk chunk = chunks.get(c);
            String sbatchName = "jobs/" + prefix + (chunks.size() == 1 ? "_slurm.sbatch" : "_slurm_" + c + ".sbatch");
            ArrayRequest request = new ArrayRequest(grid, run, "jobs/" + prefix, sbatchName, chunk.first(),
                    chunk.tasks(), args.concurrent(), args.partition(), spec, workspace.root().toString(),
                    JobLauncher.javaExecutable(), classpath, version);
            requests.add(request);
            // scripts are independent files: write them on every core
            java.util.stream.IntStream.range(0, chunk.tasks()).parallel().forEach(task -> {
                int k = chunk.first() + task;
                List<String> dirs = scripts.get(k).stream().map(e -> relative(e.dir().path())).toList();
                List<String> json = scripts.get(k).stream().map(e -> ExperimentJson.encode(e.record())).toList();
                writeFile(workspace.root().resolve(request.script(task)),
                        SlurmScriptText.taskScript(request, k, dirs, json, trainArguments(dirs.size())));
            });
            Path sbatch = workspace.root().resolve(sbatchName);
            writeFile(sbatch, SlurmScriptText.sbatch(request));
            sbatchFiles.add(sbatch);
        }
        if (client == null || !submit) {
            return new Result(prefix, scripts.size(), sbatchFiles, List.of(), "");
        }
        return submit(grid, run, requests, scripts, afterJobs, prefix, sbatchFiles);
    }

    private Result submit(String grid, String run, List<ArrayRequest> requests,
                          List<List<PlannedExperiment>> scripts, List<String> afterJobs, String prefix,
                          List<Path> sbatchFiles) {
        List<String> jobIds = new ArrayList<>();
        List<String> options = afterJobs.isEmpty() ? List.of()
                : List.of("--dependency=afterok:" + String.join(":", afterJobs));
        for (int c = 0; c < requests.size(); c++) {
            ArrayRequest request = requests.get(c);
            String jobId;
            try {
                jobId = client.submit(options, workspace.root().resolve(request.sbatchFile()));
            } catch (SlurmException e) {
                String why = "sbatch refused " + request.sbatchFile() + ": " + e.getMessage()
                        + (c > 0 ? "; " + c + " of " + requests.size() + " arrays were submitted; run the same "
                        + "grid-run command again later to submit the rest" : "");
                if (c == 0) {
                    throw e;
                }
                return new Result(prefix, scripts.size(), sbatchFiles, jobIds, why);
            }
            jobIds.add(jobId);
            int experiments = 0;
            List<ResultsStore.StateChange> queued = new ArrayList<>();
            for (int task = 0; task < request.tasks(); task++) {
                List<PlannedExperiment> script = scripts.get(request.firstScript() + task);
                experiments += script.size();
                String job = "slurm:" + jobId + "_" + task;
                String detail = "array job " + jobId + " task " + task + " (" + request.script(task) + ")";
                script.forEach(e -> queued.add(new ResultsStore.StateChange(e.record(), e.dir().path(),
                        new StatusEntry(RunState.QUEUED, Instant.now(), StatusFile.hostName(), job, detail))));
            }
            store.recordStates(queued);
            store.recordSubmission(new Submission(jobId, grid, run, request.scriptPrefix(), request.sbatchFile(),
                    request.firstScript(), request.tasks(), experiments, String.join(",", afterJobs),
                    Instant.now()));
        }
        return new Result(prefix, scripts.size(), sbatchFiles, jobIds, "");
    }

    /** {@code base}, or {@code base-2}, {@code base-3} … : the first prefix no queued array still runs. */
    private String freePrefix(String grid, String base) {
        if (client == null) {
            return base;
        }
        Set<String> busy = new HashSet<>();
        List<Submission> submissions = store.submissions(grid, null);
        if (!submissions.isEmpty()) {
            Set<String> queued = new HashSet<>();
            client.queue(submissions.stream().map(Submission::jobId).toList()).forEach(t -> queued.add(t.jobId()));
            submissions.stream().filter(s -> queued.contains(s.jobId()))
                    .forEach(s -> busy.add(s.scriptPrefix().substring(s.scriptPrefix().lastIndexOf('/') + 1)));
        }
        String prefix = base;
        for (int n = 2; busy.contains(prefix); n++) {
            prefix = base + "-" + n;
        }
        return prefix;
    }

    /** {@code path} relative to the working directory (run directories lie under it). */
    private String relative(Path path) {
        String root = workspace.root().toString() + "/";
        String text = path.toString();
        return text.startsWith(root) ? text.substring(root.length()) : workspace.root().relativize(path).toString();
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code text}, executable by its owner. No temporary file: a script is only ever rewritten when no queued
     * array runs it (see {@link #freePrefix}), and a grid of 100,000 experiments writes thousands of them.
     */
    static void writeFile(Path file, String text) {
        try (var channel = Files.newByteChannel(file, Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING), PosixFilePermissions.asFileAttribute(EXECUTABLE))) {
            ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
