package org.gridrun.jobs.local;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.train.Headline;
import org.gridrun.jobs.TrainerLock;
import org.gridrun.jobs.plan.JobGraph;
import org.gridrun.jobs.plan.PlannedExperiment;

/**
 * Runs experiments on this machine: a pool of at most {@code jobs} child processes, one experiment each.
 *
 * <p>Each job holds a slot from 0 to {@code jobs} − 1, the lowest free one when it starts, in its environment as
 * {@link org.gridrun.engine.backend.GpuSlot#VARIABLE}: jobs running at once on the GPUs spread over them.
 *
 * <p>Each finished job is ingested into the store at once, so what completed is kept even if the run is
 * interrupted. Ctrl-C sends the children SIGTERM (each saves a checkpoint and records KILLED; one still running
 * after 25 s is killed) and marks the queued experiments KILLED; a process that ends without recording a final state
 * is marked FAILED with its exit code. A job that finds another trainer holding its run directory
 * ({@link TrainerLock}) leaves the experiment to it, and its state to what that trainer records.
 */
public final class LocalExecutor {
    private static final long POLL_MILLIS = 250;
    /** How long Ctrl-C waits for the trainers to save their checkpoints after SIGTERM. */
    private static final long STOP_WAIT_NANOS = TimeUnit.SECONDS.toNanos(25);

    private final ResultsStore store;
    private final JobStarter launcher;
    private final int jobs;
    private final Map<Process, Running> running = new LinkedHashMap<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private JobGraph graph;

    public LocalExecutor(ResultsStore store, JobStarter launcher, int jobs) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1, found " + jobs);
        }
        this.store = store;
        this.launcher = launcher;
        this.jobs = jobs;
    }

    /** Runs every experiment of {@code experiments} (already staged QUEUED); their states end in the store. */
    public void run(List<PlannedExperiment> experiments, RunObserver observer) {
        run(experiments, JobGraph.of(experiments, List.of()), observer);
    }

    /**
     * Runs {@code experiments} (already staged QUEUED, each after what it waits for in {@code graph}); one starts only
     * when every experiment it waits for has completed, and one whose prerequisite ends otherwise is marked KILLED
     * without running.
     */
    public void run(List<PlannedExperiment> experiments, JobGraph graph, RunObserver observer) {
        this.graph = graph;
        Deque<PlannedExperiment> pending = new ArrayDeque<>(experiments);
        long totalSteps = experiments.stream().mapToLong(PlannedExperiment::iterations).sum();
        long finishedSteps = 0;
        Thread hook = new Thread(() -> cancel(pending), "grid-run-cancel");
        Runtime.getRuntime().addShutdownHook(hook);
        observer.started(experiments.size(), totalSteps);
        try {
            while (!cancelled.get() && (!pending.isEmpty() || !running.isEmpty())) {
                fill(pending, observer);
                for (Running r : reap()) {
                    finishedSteps += r.experiment.iterations();
                    finish(r, observer);
                }
                observer.progress(finishedSteps + runningSteps(), runningExperiments());
                sleep();
            }
        } finally {
            removeHook(hook);
            observer.closed();
        }
    }

    private synchronized void fill(Deque<PlannedExperiment> pending, RunObserver observer) {
        for (var it = pending.iterator(); it.hasNext() && running.size() < jobs; ) {
            PlannedExperiment next = it.next();
            Readiness readiness = readiness(next);
            if (readiness == Readiness.WAITING) {
                continue;
            }
            it.remove();
            StatusEntry now = next.dir().status().current().orElse(null);
            if (now != null && now.state() != RunState.QUEUED) {
                observer.finished(next, now, 0, now.detail());
                continue;
            }
            if (readiness == Readiness.BLOCKED) {
                StatusEntry entry = next.dir().status().append(RunState.KILLED, blockedReason(next));
                store.ingest(next.dir());
                observer.finished(next, entry, 0, entry.detail());
                continue;
            }
            try {
                int slot = freeSlot();
                running.put(launcher.start(next.dir(), slot), new Running(next, System.nanoTime(), slot));
            } catch (IOException e) {
                StatusEntry entry = next.dir().status().append(RunState.FAILED, "cannot start: " + e.getMessage());
                store.ingest(next.dir());
                observer.finished(next, entry, 0, e.getMessage());
            }
        }
    }

    /** The lowest slot no running job holds: jobs at once hold distinct slots, so they spread over the GPUs. */
    private int freeSlot() {
        int slot = 0;
        while (slot < jobs && holds(slot)) {
            slot++;
        }
        return slot;
    }

    private boolean holds(int slot) {
        return running.values().stream().anyMatch(r -> r.slot == slot);
    }

    private enum Readiness { READY, WAITING, BLOCKED }

    private Readiness readiness(PlannedExperiment e) {
        Readiness result = Readiness.READY;
        for (PlannedExperiment p : graph.prerequisites(e)) {
            RunState state = p.dir().status().state();
            if (state == null ? p.known() != RunState.COMPLETED : state != RunState.COMPLETED) {
                if (state != null && state.isTerminal()) {
                    return Readiness.BLOCKED;
                }
                result = Readiness.WAITING;
            }
        }
        return result;
    }

    private String blockedReason(PlannedExperiment e) {
        for (PlannedExperiment p : graph.prerequisites(e)) {
            RunState state = p.dir().status().state();
            if (state != null && state.isTerminal() && state != RunState.COMPLETED) {
                return "not run: it waits for " + p.record().name() + ", which ended " + state;
            }
        }
        return "not run: a prerequisite did not complete";
    }

    private synchronized List<Running> reap() {
        List<Running> done = new ArrayList<>();
        running.entrySet().removeIf(entry -> {
            if (entry.getKey().isAlive()) {
                return false;
            }
            entry.getValue().exitCode = entry.getKey().exitValue();
            done.add(entry.getValue());
            return true;
        });
        return done;
    }

    private void finish(Running r, RunObserver observer) {
        RunDir dir = r.experiment.dir();
        StatusEntry last = dir.status().current().orElse(null);
        if (r.exitCode == TrainerLock.HELD_EXIT) {
            store.ingest(dir);
            observer.finished(r.experiment, last, 0, "left to the trainer that holds it (an earlier grid-run's)");
            return;
        }
        if (last != null && last.state() == RunState.PREEMPTED) {
            last = dir.status().append(RunState.KILLED, "stopped by SIGUSR1 with a checkpoint; nothing requeues a "
                    + "local job: grid-run resubmit --failed resumes it");
        } else if (last == null || !last.state().isTerminal()) {
            RunState state = r.exitCode == 130 || r.exitCode == 137 || r.exitCode == 143
                    ? RunState.KILLED : RunState.FAILED;
            last = dir.status().append(state, "process exited with code " + r.exitCode + " without a final state");
        }
        store.ingest(dir);
        double seconds = (System.nanoTime() - r.startNanos) / 1e9;
        observer.finished(r.experiment, last, seconds, summary(r.experiment, last));
    }

    private String summary(PlannedExperiment e, StatusEntry entry) {
        if (entry.state() != RunState.COMPLETED) {
            return entry.detail();
        }
        return store.lastHeadline(e.record().id()).map(Headline.Value::labelled).orElse("");
    }

    private synchronized long runningSteps() {
        long steps = 0;
        for (Running r : running.values()) {
            steps += Math.min(r.experiment.iterations(), SpoolProgress.lastStep(r.experiment.dir().metricsFile()));
        }
        return steps;
    }

    private synchronized List<PlannedExperiment> runningExperiments() {
        return running.values().stream().map(r -> r.experiment).toList();
    }

    /**
     * Whether Ctrl-C (or SIGTERM) stopped the run. The JVM is then shutting down: its store closes under the caller,
     * which must leave the store and the report to the next grid-run, status or report.
     */
    public boolean cancelled() {
        return cancelled.get();
    }

    /** Stops every child and marks what had not finished KILLED; runs on Ctrl-C. */
    private synchronized void cancel(Deque<PlannedExperiment> pending) {
        if (running.isEmpty() && pending.isEmpty()) {
            return;
        }
        cancelled.set(true);
        for (Process process : running.keySet()) {
            process.destroy();
        }
        long deadline = System.nanoTime() + STOP_WAIT_NANOS;
        for (Map.Entry<Process, Running> entry : Map.copyOf(running).entrySet()) {
            Process process = entry.getKey();
            try {
                process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            RunDir dir = entry.getValue().experiment.dir();
            RunState state = dir.status().state();
            if (state == null || !state.isTerminal()) {
                dir.status().append(RunState.KILLED, "cancelled by the user (Ctrl-C)");
            }
        }
        for (PlannedExperiment e : pending) {
            e.dir().status().append(RunState.KILLED, "cancelled by the user before it started");
        }
        System.err.println("\ncancelled: " + running.size() + " running and " + pending.size()
                + " queued experiments marked KILLED; run the same command again to resume");
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already: nothing to remove
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class Running {
        final PlannedExperiment experiment;
        final long startNanos;
        /** Its place in the pool, 0 to jobs − 1 ({@link org.gridrun.engine.backend.GpuSlot}). */
        final int slot;
        int exitCode;

        Running(PlannedExperiment experiment, long startNanos, int slot) {
            this.experiment = experiment;
            this.startNanos = startNanos;
            this.slot = slot;
        }
    }
}
