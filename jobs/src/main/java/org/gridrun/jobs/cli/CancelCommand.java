package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.time.Instant;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.run.StatusFile;
import org.gridrun.jobs.Reconciler;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.slurm.SlurmClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run cancel --grid G}: stops the grid's queued and running experiments and marks them KILLED.
 *
 * <p>SLURM array tasks are cancelled with scancel; a local trainer on this host gets SIGTERM (it checkpoints and
 * records KILLED); a local experiment still waiting in a grid-run's queue is marked KILLED, and that grid-run skips
 * it. {@code grid-run resubmit --failed} runs them again.
 */
@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = "Cancel a grid's queued and running experiments (SLURM jobs and local processes); "
                + "grid-run resubmit --failed runs them again.")
final class CancelCommand implements Callable<Integer> {
    @Mixin
    GridSelection selection;

    @Option(names = {"-e", "--experiment"}, paramLabel = "NAME",
            description = "Only these experiments (names as grid-run status prints them); repeatable.")
    List<String> experiments;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Workspace workspace = common.workspace();
        PrintWriter out = spec.commandLine().getOut();
        String grid = selection.name(workspace);
        List<RunDir> inFlight = new ArrayList<>();
        for (RunDir dir : RunDirectories.of(workspace, grid)) {
            RunState state = dir.status().state();
            boolean wanted = (selection.run == null
                    || dir.path().getParent().getFileName().toString().equals(selection.run))
                    && (experiments == null || experiments.contains(dir.path().getFileName().toString()));
            if (wanted && state != null && state.isInFlight()) {
                inFlight.add(dir);
            }
        }
        SlurmClient slurm = Clusters.slurmIfAnswering();
        Set<String> slurmJobs = new LinkedHashSet<>();
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            List<StoredExperiment> unstarted = unstarted(store, grid);
            if (inFlight.isEmpty() && unstarted.isEmpty()) {
                out.println("grid " + grid + (selection.run == null ? "" : ", run " + selection.run)
                        + ": nothing queued or running");
                out.flush();
                return 0;
            }
            unstarted.forEach(e -> slurmJobs.add(e.job().substring("slurm:".length())));
            for (RunDir dir : inFlight) {
                List<StatusEntry> history = dir.status().history();
                String job = Reconciler.currentJob(history);
                if (job.startsWith("slurm:")) {
                    slurmJobs.add(job.substring("slurm:".length()));
                }
            }
            if (!slurmJobs.isEmpty()) {
                if (slurm == null) {
                    throw new UserInputException(slurmJobs.size() + " experiments run as SLURM jobs, but no SLURM "
                            + "answers on this machine; run grid-run cancel on the cluster's login node");
                }
                slurm.cancel(slurmJobs);
            }
            for (StoredExperiment e : unstarted) {
                store.recordState(new ExperimentRecord(e.grid(), e.run(), e.name(), e.id(), e.params(), e.config()),
                        e.runDir(), new StatusEntry(RunState.KILLED, Instant.now(), StatusFile.hostName(), e.job(),
                                "cancelled by the user (grid-run cancel) before it started"));
            }
            int local = 0;
            for (RunDir dir : inFlight) {
                boolean slurmJob = Reconciler.currentJob(dir.status().history()).startsWith("slurm:");
                if (!slurmJob && terminateLocal(dir)) {
                    local++;
                }
                if (dir.status().state().isInFlight()) {
                    dir.status().append(RunState.KILLED, "cancelled by the user (grid-run cancel)");
                }
                store.ingest(dir);
            }
            out.printf("grid %s: cancelled %d experiments (%d SLURM tasks, %d local processes signalled); "
                    + "grid-run resubmit --grid %s --failed runs them again%n", grid,
                    inFlight.size() + unstarted.size(), slurmJobs.size(), local, selection.grid);
        }
        out.flush();
        return 0;
    }

    /** Experiments queued on SLURM whose job has not started yet, so they have no run directory. */
    private List<StoredExperiment> unstarted(ResultsStore store, String grid) {
        return store.experiments(grid, selection.run).stream()
                .filter(e -> e.state() != null && e.state().isInFlight() && e.job() != null
                        && e.job().startsWith("slurm:") && (e.runDir() == null || !RunDir.at(e.runDir()).exists()))
                .filter(e -> experiments == null || experiments.contains(e.name()))
                .toList();
    }

    /** Sends SIGTERM to the trainer of {@code dir} when it runs on this host; whether one was signalled. */
    private static boolean terminateLocal(RunDir dir) {
        StatusEntry last = dir.status().current().orElse(null);
        if (last == null || !last.host().equals(StatusFile.hostName())) {
            return false;
        }
        java.util.OptionalLong pid = Reconciler.trainerPid(last);
        if (pid.isEmpty()) {
            return false;
        }
        return ProcessHandle.of(pid.getAsLong()).map(p -> {
            p.destroy();
            try {
                p.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
            return true;
        }).orElse(false);
    }
}
