package org.gridrun.jobs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.time.Instant;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.run.StatusFile;
import org.gridrun.jobs.slurm.QueuedTask;
import org.gridrun.jobs.slurm.SlurmClient;

/**
 * Finds experiments whose job is gone without recording a final state, and marks them KILLED.
 *
 * <p>An experiment is in flight while its status is QUEUED, RUNNING or PREEMPTED. Its job is the latest one an entry
 * of its current attempt names: {@code slurm:<id>} or {@code slurm:<array id>_<task>} is gone when squeue no longer
 * lists it (pending, configuring, running or completing); {@code local:<pid>}, the {@code grid-run} that queued it,
 * is gone when that process no longer runs on this host; and a RUNNING entry's {@code pid <n>} recorded on this host
 * is gone when that process no longer runs. Entries recorded on another host with no SLURM job are left alone: this
 * host cannot tell. The status file is read again just before marking, so a job that finished meanwhile keeps its
 * final state; and an experiment whose {@link TrainerLock} a process holds is not gone, whatever its status says (a
 * trainer that a killed grid-run was starting).
 */
public final class Reconciler {
    private static final Pattern PID = Pattern.compile("\\bpid (\\d+)\\b");

    private final ResultsStore store;
    private final SlurmClient slurm;

    /** @param slurm the cluster to ask about SLURM jobs, or null when none answers (their experiments stay) */
    public Reconciler(ResultsStore store, SlurmClient slurm) {
        this.store = store;
        this.slurm = slurm;
    }

    /** One experiment found gone, with why. */
    public record Gone(RunDir dir, String reason) {
    }

    /** Marks KILLED, in each run directory and the store, every experiment of {@code dirs} whose job is gone. */
    public List<Gone> reconcile(List<RunDir> dirs) {
        Map<RunDir, String> slurmJobs = new LinkedHashMap<>();
        List<Gone> gone = new ArrayList<>();
        for (RunDir dir : dirs) {
            List<StatusEntry> history = dir.status().history();
            if (history.isEmpty() || !history.get(history.size() - 1).state().isInFlight()) {
                continue;
            }
            String job = currentJob(history);
            if (job.startsWith("slurm:")) {
                slurmJobs.put(dir, job.substring("slurm:".length()));
            } else {
                localReason(history, job).ifPresent(reason -> gone.add(new Gone(dir, reason)));
            }
        }
        if (!slurmJobs.isEmpty() && slurm != null) {
            Set<String> queued = queued(slurmJobs.values());
            slurmJobs.forEach((dir, job) -> {
                if (!queued.contains(job)) {
                    gone.add(new Gone(dir, "slurm job " + job + " left the queue without a final state "
                            + "(cancelled, timed out, or its node failed; see its jobs/log file)"));
                }
            });
        }
        List<Gone> marked = new ArrayList<>();
        for (Gone g : gone) {
            RunState now = g.dir().status().state();
            if (now != null && now.isInFlight() && !TrainerLock.held(g.dir())) {
                g.dir().status().append(RunState.KILLED, g.reason());
                store.ingest(g.dir());
                marked.add(g);
            }
        }
        return marked;
    }

    /**
     * Marks KILLED, in the store, every in-flight experiment of {@code stored} that has no run directory yet (a SLURM
     * job stages its own when it starts) and whose SLURM job left the queue: cancelled or failed before it started.
     */
    public List<StoredExperiment> reconcileUnstarted(List<StoredExperiment> stored) {
        Map<StoredExperiment, String> waiting = new LinkedHashMap<>();
        for (StoredExperiment e : stored) {
            boolean started = e.runDir() != null && RunDir.at(e.runDir()).exists();
            if (!started && e.state() != null && e.state().isInFlight() && e.job() != null
                    && e.job().startsWith("slurm:")) {
                waiting.put(e, e.job().substring("slurm:".length()));
            }
        }
        if (waiting.isEmpty() || slurm == null) {
            return List.of();
        }
        Set<String> queued = queued(waiting.values());
        List<StoredExperiment> gone = new ArrayList<>();
        waiting.forEach((e, job) -> {
            if (!queued.contains(job)) {
                store.recordState(new ExperimentRecord(e.grid(), e.run(), e.name(), e.id(), e.params(), e.config()),
                        e.runDir(), new StatusEntry(RunState.KILLED, Instant.now(), StatusFile.hostName(), "slurm:"
                                + job, "slurm job " + job + " left the queue before it started (cancelled?)"));
                gone.add(e);
            }
        });
        return gone;
    }

    /** The job the latest entry of the current attempt names; empty when none does. */
    public static String currentJob(List<StatusEntry> history) {
        for (int i = history.size() - 1; i >= 0; i--) {
            StatusEntry entry = history.get(i);
            if (!entry.job().isEmpty()) {
                return entry.job();
            }
            if (entry.state() == RunState.STAGED || i > 0 && history.get(i - 1).state().isTerminal()) {
                break;
            }
        }
        return "";
    }

    private static Optional<String> localReason(List<StatusEntry> history, String job) {
        StatusEntry last = history.get(history.size() - 1);
        if (!last.host().equals(StatusFile.hostName())) {
            return Optional.empty();
        }
        if (last.state() == RunState.RUNNING) {
            OptionalLong pid = trainerPid(last);
            if (pid.isPresent() && !alive(pid.getAsLong())) {
                return Optional.of("its process " + pid.getAsLong() + " is gone (killed or crashed) without a final "
                        + "state");
            }
            return Optional.empty();
        }
        if (job.startsWith("local:")) {
            String pid = job.substring("local:".length());
            if (!alive(Long.parseLong(pid))) {
                return Optional.of("the grid-run that queued it (pid " + pid + ") is gone");
            }
        }
        return Optional.empty();
    }

    /** The pid a RUNNING entry recorded ({@code pid <n>} in its detail), when it has one. */
    public static OptionalLong trainerPid(StatusEntry running) {
        Matcher pid = PID.matcher(running.detail());
        return running.state() == RunState.RUNNING && pid.find() ? OptionalLong.of(Long.parseLong(pid.group(1)))
                : OptionalLong.empty();
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The SLURM jobs of {@code jobs} squeue still lists, as {@code <id>} and {@code <id>_<task>}. */
    private Set<String> queued(java.util.Collection<String> jobs) {
        Set<String> ids = new HashSet<>();
        for (String job : jobs) {
            int underscore = job.indexOf('_');
            ids.add(underscore < 0 ? job : job.substring(0, underscore));
        }
        Set<String> queued = new HashSet<>();
        for (QueuedTask task : slurm.queue(ids)) {
            queued.add(task.taskId() < 0 ? task.jobId() : task.jobId() + "_" + task.taskId());
        }
        return queued;
    }
}
