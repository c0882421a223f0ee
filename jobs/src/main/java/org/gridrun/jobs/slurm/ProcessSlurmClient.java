package org.gridrun.jobs.slurm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Talks to SLURM by running its commands (sinfo, sbatch, squeue, scancel, scontrol, sacctmgr) on this machine.
 */
public final class ProcessSlurmClient implements SlurmClient {
    /** How long {@link #available()} waits for sinfo. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
    /** How long any other command may take; a busy controller can be slow, a dead one never answers. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    /** squeue shortens long array expressions to 64 characters and "..." unless told otherwise. */
    private static final Map<String, String> FULL_ARRAY_EXPRESSIONS = Map.of("SLURM_BITSTR_LEN", "0");
    private static final String GONE = "Invalid job id specified";
    private static final String ALREADY_ENDED = "already completing or completed";

    private final CommandRunner runner;
    private final String user;

    /** A client that runs the commands as child processes, for the user running this JVM. */
    public ProcessSlurmClient() {
        this(CommandRunner.processes(), System.getProperty("user.name"));
    }

    /**
     * A client that runs its commands through {@code runner}.
     *
     * @param user whose jobs {@link #queue} reports and whose MaxSubmitJobs {@link #limits} reads
     */
    public ProcessSlurmClient(CommandRunner runner, String user) {
        this.runner = runner;
        this.user = user;
    }

    @Override
    public boolean available() {
        try {
            return runner.run(List.of("sinfo", "--noheader", "--format=%P"), Map.of(), PROBE_TIMEOUT).ok();
        } catch (SlurmException noAnswer) {
            return false;
        }
    }

    @Override
    public String submit(List<String> sbatchOptions, Path sbatchFile) {
        List<String> command = new ArrayList<>(List.of("sbatch", "--parsable"));
        command.addAll(sbatchOptions);
        command.add(sbatchFile.toString());
        CommandRunner.Result result = runRequired(command, Map.of());
        String jobId = result.stdout().strip().split(";", 2)[0];
        if (!jobId.matches("\\d+")) {
            throw new SlurmException("sbatch printed no job id for " + sbatchFile + ": '" + result.stdout().strip()
                    + "'" + stderrSuffix(result));
        }
        return jobId;
    }

    @Override
    public List<QueuedTask> queue(Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return List.of();
        }
        List<String> command = List.of("squeue", "--noheader", "--format=" + SqueueParser.FORMAT,
                "--jobs=" + String.join(",", jobIds));
        CommandRunner.Result result = runner.run(command, FULL_ARRAY_EXPRESSIONS, COMMAND_TIMEOUT);
        if (!result.ok()) {
            // squeue fails when it knows none of the ids: all of them have left the controller's memory
            if (result.stderr().contains(GONE)) {
                return List.of();
            }
            throw failure(command, result);
        }
        Set<String> wanted = Set.copyOf(jobIds);
        return SqueueParser.parse(result.stdout()).stream()
                .filter(t -> t.user().equals(user))
                .filter(t -> wanted.contains(t.jobId()) || wanted.contains(t.id()))
                .toList();
    }

    @Override
    public void cancel(Collection<String> jobIdsOrTasks) {
        if (jobIdsOrTasks.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("scancel"));
        command.addAll(jobIdsOrTasks);
        CommandRunner.Result result = runner.run(command, Map.of(), COMMAND_TIMEOUT);
        if (!result.ok() && !onlyEndedJobs(result.stderr())) {
            throw failure(command, result);
        }
    }

    /** Whether every complaint of scancel is about a job that has already ended or been forgotten. */
    private static boolean onlyEndedJobs(String stderr) {
        List<String> complaints = stderr.lines().filter(l -> !l.isBlank()).toList();
        return !complaints.isEmpty()
                && complaints.stream().allMatch(l -> l.contains(GONE) || l.contains(ALREADY_ENDED));
    }

    @Override
    public ClusterLimits limits() {
        CommandRunner.Result config = runRequired(List.of("scontrol", "show", "config"), Map.of());
        return ClusterLimits.fromConfig(config.stdout()).withMaxSubmitJobs(maxSubmitJobs());
    }

    /** The user's MaxSubmitJobs when sacctmgr answers (it needs slurmdbd); empty otherwise. */
    private OptionalInt maxSubmitJobs() {
        try {
            CommandRunner.Result result = runner.run(List.of("sacctmgr", "--noheader", "--parsable2", "show",
                    "assoc", "user=" + user, "format=MaxSubmit"), Map.of(), PROBE_TIMEOUT);
            return result.ok() ? ClusterLimits.maxSubmitFromSacctmgr(result.stdout()) : OptionalInt.empty();
        } catch (SlurmException noAnswer) {
            return OptionalInt.empty();
        }
    }

    private CommandRunner.Result runRequired(List<String> command, Map<String, String> environment) {
        CommandRunner.Result result = runner.run(command, environment, COMMAND_TIMEOUT);
        if (!result.ok()) {
            throw failure(command, result);
        }
        return result;
    }

    private static SlurmException failure(List<String> command, CommandRunner.Result result) {
        return new SlurmException(String.join(" ", command) + " failed (exit " + result.exitCode() + ")"
                + stderrSuffix(result));
    }

    private static String stderrSuffix(CommandRunner.Result result) {
        String stderr = result.stderr().strip();
        return stderr.isEmpty() ? "" : ": " + stderr;
    }
}
