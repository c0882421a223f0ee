package org.gridrun.jobs.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.jobs.plan.PlannedExperiment;

/**
 * Prepares run directories for a new attempt without losing what an earlier attempt wrote.
 *
 * <p>The metric spool and log of an unfinished earlier attempt move to {@code attempt-<k>/} inside the run
 * directory, unless it left a checkpoint to resume from (a completed run rerun from its start moves its checkpoint
 * there too); {@code experiment.yaml} is rewritten and the state history keeps growing.
 */
public final class Stager {
    private final ResultsStore store;

    public Stager(ResultsStore store) {
        this.store = store;
    }

    /** Writes the experiment, archives an earlier attempt, and records {@code state} in the directory and store. */
    public void stage(PlannedExperiment e, RunState state) {
        stage(List.of(e), state, "");
    }

    /**
     * {@link #stage(PlannedExperiment, RunState)} for many experiments, each entry naming {@code job}; the store is
     * written in one transaction at the end.
     */
    public void stage(List<PlannedExperiment> experiments, RunState state, String job) {
        List<ResultsStore.StateChange> changes = new ArrayList<>(experiments.size());
        for (PlannedExperiment e : experiments) {
            RunDir dir = e.dir();
            if (dir.exists()) {
                archivePreviousAttempt(dir);
            }
            dir.writeExperiment(e.record());
            changes.add(new ResultsStore.StateChange(e.record(), dir.path(), dir.status().append(state, job, "")));
        }
        store.recordStates(changes);
    }

    /** Appends {@code state} to staged experiments' status, naming {@code job}, and records it in the store. */
    public void mark(List<PlannedExperiment> experiments, RunState state, String job, String detail) {
        List<ResultsStore.StateChange> changes = new ArrayList<>(experiments.size());
        for (PlannedExperiment e : experiments) {
            changes.add(new ResultsStore.StateChange(e.record(), e.dir().path(),
                    e.dir().status().append(state, job, detail)));
        }
        store.recordStates(changes);
    }

    /**
     * Moves the metric spool and log of an earlier attempt to {@code attempt-<k>/}, unless the directory holds a
     * checkpoint: then the next attempt resumes from it and continues the same spool (the trainer drops the records
     * after the checkpoint's step) and log.
     */
    public static void archivePreviousAttempt(RunDir dir) {
        if (!Files.exists(dir.checkpointFile())) {
            archive(dir, dir.metricsFile(), dir.logFile());
        }
    }

    /**
     * Moves a completed run's checkpoint, metric spool and log to {@code attempt-<k>/}, so that its next attempt
     * trains from the first step (its checkpoint would resume it at its last) and what it wrote stays: for
     * {@code resubmit --completed}, after a fix to a method or the trainer.
     *
     * @return the folder they went to, or null when the directory held none of them
     */
    public static Path archiveCompletedRun(RunDir dir) {
        return archive(dir, dir.checkpointFile(), dir.metricsFile(), dir.logFile());
    }

    /** Moves those of {@code files} that exist to the run directory's next {@code attempt-<k>/}; null when none. */
    private static Path archive(RunDir dir, Path... files) {
        if (Arrays.stream(files).noneMatch(Files::exists)) {
            return null;
        }
        try {
            int k = 1;
            while (Files.exists(dir.path().resolve("attempt-" + k))) {
                k++;
            }
            Path archive = Files.createDirectories(dir.path().resolve("attempt-" + k));
            for (Path file : files) {
                if (Files.exists(file)) {
                    Files.move(file, archive.resolve(file.getFileName()), StandardCopyOption.ATOMIC_MOVE);
                }
            }
            return archive;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot archive the previous attempt in " + dir + ": " + e.getMessage(), e);
        }
    }
}
