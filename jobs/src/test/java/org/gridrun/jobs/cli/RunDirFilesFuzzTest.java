package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.run.FileWarnings;
import org.gridrun.engine.train.TrainJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run directory's own files damaged: {@code experiment.yaml}, read as a trainer reads it (the record, then the
 * trainer's check of its config), and {@code status}, read as every command reads it. Each seeded mutation
 * ({@link Mutations}) ends read or in exit 2 naming the file, through the command line's error handler; a damaged
 * status line is passed over with a warning naming file:line, so every transition read is one the good file recorded
 * (its checksum catches a line damaged into another). Prints one line per file.
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
        List<StatusEntry> written = dir.status().history();
        FuzzTally tally = new FuzzTally("status (every command)", SEED);
        try (FileWarnings.Capture capture = FileWarnings.capture()) {
            List<String> warned = capture.warnings();
            for (Mutations.Mutation m : new Mutations(SEED + 1).of(good, 240)) {
                Files.write(file, m.bytes());
                capture.clear();
                tally.judge(m, file, () -> {
                    List<StatusEntry> history = dir.status().history();
                    if (!written.containsAll(history)) {
                        tally.breach(m, "read entries the file never recorded: " + history);
                    }
                    return dir.status().state();
                });
                tally.count(warned.isEmpty() ? "no line passed over" : "damaged lines named with a warning");
                if (warned.stream().anyMatch(w -> !w.startsWith("warning: " + file + ":"))) {
                    tally.breach(m, "a warning that does not name file:line: " + warned);
                }
            }
        }
        tally.finish();
    }
}
