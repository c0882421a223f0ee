package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.jobs.Reconciler;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.local.JobLauncher;
import org.gridrun.jobs.local.LineObserver;
import org.gridrun.jobs.local.LocalExecutor;
import org.gridrun.jobs.local.PoolSize;
import org.gridrun.jobs.local.RunObserver;
import org.gridrun.jobs.local.Stager;
import org.gridrun.jobs.local.TerminalObserver;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.PlannedExperiment;

/**
 * One {@code grid-run --grid G} on the local executor: stage, run, ingest (what it ran, and what ended or runs
 * elsewhere), report, summarise.
 */
final class GridSession {
    /** The exit status of a grid stopped by Ctrl-C or SIGTERM (the JVM ends with the signal's own). */
    static final int CANCELLED = 130;

    private final Workspace workspace;
    private final ResultsStore store;
    private final PrintWriter out;

    GridSession(Workspace workspace, ResultsStore store, PrintWriter out) {
        this.workspace = workspace;
        this.store = store;
        this.out = out;
    }

    /** Lists what would run, writing nothing. */
    int dryRun(Plan plan) {
        header(out, plan, "");
        for (PlannedExperiment e : plan.experiments()) {
            out.printf(Locale.ROOT, "  %-10s %s%n", plan.runs(e) ? "would run" : e.known().name().toLowerCase(Locale.ROOT),
                    workspace.root().relativize(e.dir().path()));
        }
        out.println("dry run: nothing was written");
        return 0;
    }

    /**
     * Runs what the plan marks to run, rewriting the report every {@code reportEvery} seconds meanwhile (0: never),
     * then writes the final report; exit 0 when every experiment completed.
     */
    int run(Plan plan, PoolSize pool, int reportEvery) {
        List<PlannedExperiment> toRun = plan.toRun();
        int jobs = pool.jobs();
        int atOnce = Math.min(jobs, Math.max(1, toRun.size()));
        header(out, plan, toRun.isEmpty() ? "" : " on " + atOnce + " local job" + (atOnce > 1 ? "s" : "")
                + (pool.why() == null ? "" : " (" + pool.why() + "; --jobs to change)"));
        long start = System.nanoTime();
        if (toRun.isEmpty()) {
            out.printf("nothing to run: all %d experiments are completed, diverged, or queued or running elsewhere%n",
                    plan.experiments().size());
        } else {
            out.println("data: " + describeData(toRun.get(0)));
            out.flush();
            new Stager(store).stage(toRun, RunState.QUEUED, "local:" + ProcessHandle.current().pid());
            LocalExecutor executor = new LocalExecutor(store,
                    new JobLauncher(JobLauncher.jvmOptions(Math.min(jobs, toRun.size()))), jobs);
            try (LiveReport live = LiveReport.start(workspace, store, plan.grid(), reportEvery, out)) {
                executor.run(toRun, plan.graph(), observer());
            }
            if (executor.cancelled()) {
                out.printf(Locale.ROOT, "wall time %.1f s; cancelled: the next grid-run, status or report brings the "
                        + "store and the report up to date%n", (System.nanoTime() - start) / 1e9);
                out.flush();
                return CANCELLED;
            }
        }
        out.printf(Locale.ROOT, "wall time %.1f s%n", (System.nanoTime() - start) / 1e9);
        catchUp(plan);
        new ReportWriter(workspace, store).write(plan.grid(), out);
        long unfinished = plan.experiments().stream()
                .filter(e -> store.state(e.record().id()).orElse(null) != RunState.COMPLETED).count();
        return unfinished == 0 ? 0 : ErrorHandler.FAILURE;
    }

    /**
     * Ingests every experiment of the plan that this run did not run and whose run directory is ahead of the store:
     * one that an earlier grid-run's trainers (which finish on their own) or a cluster job ended meanwhile, or that
     * is still running elsewhere; names those still running. The report then holds every experiment that ended.
     */
    private void catchUp(Plan plan) {
        Map<String, RunState> stored = new HashMap<>();
        store.experiments(plan.grid(), null).forEach(e -> stored.put(e.id(), e.state()));
        Set<PlannedExperiment> ran = Set.copyOf(plan.toRun());
        int ended = 0;
        List<PlannedExperiment> running = new ArrayList<>();
        for (PlannedExperiment e : plan.experiments()) {
            RunState onDisk = ran.contains(e) || !e.dir().exists() ? null : e.dir().status().state();
            if (onDisk != null && (onDisk.isInFlight() || onDisk != stored.get(e.record().id()))) {
                store.ingest(e.dir());
                if (onDisk.isInFlight()) {
                    running.add(e);
                } else {
                    ended++;
                }
            }
        }
        if (ended > 0) {
            out.printf("ingested %d experiment%s that ended elsewhere (an earlier grid-run's trainers, or cluster "
                    + "jobs)%n", ended, ended == 1 ? "" : "s");
        }
        if (!running.isEmpty()) {
            out.printf("%d experiment%s still running elsewhere (the next grid-run, status or report ingests "
                    + "them):%n", running.size(), running.size() == 1 ? " is" : "s are");
            running.forEach(e -> out.println("  " + e.record().name() + "  " + where(e.dir())));
        }
    }

    /** Where an experiment in flight is: its state, and its trainer's pid and host or its job. */
    private static String where(RunDir dir) {
        StatusEntry last = dir.status().current().orElse(null);
        if (last == null) {
            return "";
        }
        OptionalLong pid = Reconciler.trainerPid(last);
        String job = Reconciler.currentJob(dir.status().history());
        return "[" + last.state() + (pid.isPresent() ? ", pid " + pid.getAsLong() + " on " + last.host()
                : job.isEmpty() ? "" : ", " + job) + "]";
    }

    /** The first line of every grid run: how many experiments, how many skipped and why, how many run. */
    static void header(PrintWriter out, Plan plan, String where) {
        int total = plan.experiments().size();
        int toRun = plan.toRun().size();
        long inFlight = plan.experiments().stream().filter(e -> e.known() != null && e.known().isInFlight()).count();
        long diverged = plan.experiments().stream().filter(e -> e.known() == RunState.DIVERGED).count();
        out.printf(Locale.ROOT, "grid %s: %d experiments, %d already completed%s%s, %d to run%s%n", plan.grid(), total,
                plan.completed(), inFlight > 0 ? ", " + inFlight + " queued or running" : "",
                diverged > 0 ? ", " + diverged + " diverged (resubmit --diverged runs them again)" : "", toRun, where);
        out.flush();
    }

    private RunObserver observer() {
        return System.console() != null ? new TerminalObserver(out) : new LineObserver(out);
    }

    /** Where the first experiment's data set comes from, read from the files' headers only. */
    private static String describeData(PlannedExperiment e) {
        Object dataset = e.record().config().get("dataset");
        Object dir = e.record().config().get("data_dir");
        return DataSets.describeSource(dataset == null ? "fashion-mnist" : dataset.toString(),
                dir == null ? "" : dir.toString());
    }
}
