package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.train.TrainJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run directory's own files damaged: {@code experiment.yaml}, read as a trainer reads it (the record, then the
 * trainer's check of its config), and {@code status}, read as every command reads it. Each seeded mutation
 * ({@link Mutations}) ends read or in exit 2 naming the file, through the command line's error handler; a damaged
 * status line is passed over, so the state read is one the file recorded, or none. Prints one line per file.
 */
class RunDirFilesFuzzTest {
    private static final long SEED = 20_261_129L;

    @TempDir
    Path tmp;

    @Test
    void damagedExperimentFilesAreReadOrNamed() throws IOException {
        RunDir dir = StagedExperiment.stage(tmp, "exp");
        byte[] good = Files.readAllBytes(dir.experimentFile());
        FuzzTally tally = new FuzzTally("experiment.yaml (grid-run train)", SEED);
        for (Mutations.Mutation m : new Mutations(SEED).of(good, 240)) {
            Files.write(dir.experimentFile(), m.bytes());
            tally.judge(m, dir.experimentFile(), () -> TrainJob.readConfig(dir));
        }
        tally.finish();
    }

    @Test
    void damagedStatusFilesAreReadAsTheLastReadableState() throws IOException {
        RunDir dir = StagedExperiment.stage(tmp, "exp");
        dir.status().append(RunState.QUEUED, "local:12", "queued");
        dir.status().append(RunState.RUNNING, "local:12", "pid 13; git 0123abcd");
        dir.status().append(RunState.KILLED, "stopped by SIGTERM at step 10; checkpoint saved");
        dir.status().append(RunState.RUNNING, "local:14", "pid 15; resumed from checkpoint at step 10");
        dir.status().append(RunState.COMPLETED, "Vacc 0.7000 after 30 steps; data: synthetic; backend: cpu");
        Path file = tmp.resolve("runs/g/r/exp/" + RunDir.STATUS_FILE);
        byte[] good = Files.readAllBytes(file);
        Set<RunState> recorded = Set.of(RunState.QUEUED, RunState.RUNNING, RunState.KILLED, RunState.COMPLETED);
        FuzzTally tally = new FuzzTally("status (every command)", SEED);
        for (Mutations.Mutation m : new Mutations(SEED + 1).of(good, 240)) {
            Files.write(file, m.bytes());
            tally.judge(m, file, () -> {
                List<StatusEntry> history = dir.status().history();
                RunState state = dir.status().state();
                if (state != null && !recorded.contains(state) || history.size() > 6) {
                    tally.breach(m, "read state " + state + " from " + history.size() + " lines");
                }
                return state;
            });
        }
        tally.finish();
    }
}
