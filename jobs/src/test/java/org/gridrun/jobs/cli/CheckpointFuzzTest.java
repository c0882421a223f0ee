package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.train.StopSignal;
import org.gridrun.engine.train.TrainJob;
import org.gridrun.engine.train.TrainListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged checkpoints: seeded mutations ({@link Mutations}) of a real {@code checkpoint.bin} saved at step 10. Each is
 * read as {@code grid-run train} reads it first (header, then the whole file and its checksum), through the command
 * line's error handler; every 80th is handed to the whole {@code train} command, which must record FAILED with the
 * file's name and no exception name, never claim a resume, exit 2, and leave the spool and the rows the store holds
 * exactly as they were. Prints one summary line.
 */
class CheckpointFuzzTest {
    private static final long SEED = 20_261_127L;
    private static final int WHOLE_COMMAND_EVERY = 80;

    @TempDir
    Path tmp;

    @Test
    void damagedCheckpointsAreNamedAndNeverCostTheSpoolOrTheStore() throws IOException {
        RunDir dir = stoppedAtStep10();
        Path file = dir.checkpointFile();
        byte[] good = Files.readAllBytes(file);
        byte[] spool = Files.readAllBytes(dir.metricsFile());
        FuzzTally tally = new FuzzTally("checkpoint.bin (grid-run train)", SEED);
        try (ResultsStore store = ResultsStore.openUrl("jdbc:h2:mem:checkpoint-fuzz")) {
            store.ingest(dir);
            Map<String, List<MetricRecord>> stored = rows(store, dir);
            List<Mutations.Mutation> cases = new Mutations(SEED, 0, 4, 8).of(good, 240);
            for (int i = 0; i < cases.size(); i++) {
                Mutations.Mutation m = cases.get(i);
                Files.write(file, m.bytes());
                if (i % WHOLE_COMMAND_EVERY == 0) {
                    trainWhole(tally, m, dir);
                    store.ingest(dir);
                    if (!stored.equals(rows(store, dir)) || !java.util.Arrays.equals(spool,
                            Files.readAllBytes(dir.metricsFile()))) {
                        tally.breach(m, "the spool or the store's rows changed");
                    }
                } else {
                    tally.judge(m, file, () -> {
                        TrainJob.checkpointStep(dir);
                        return TrainJob.verifiedCheckpointStep(dir);
                    });
                }
            }
        }
        tally.finish();
    }

    /** Runs {@code grid-run train} on the damaged checkpoint and checks what it recorded. */
    private void trainWhole(FuzzTally tally, Mutations.Mutation m, RunDir dir) {
        Cli.Result r = Cli.run(tmp, "train", dir.path().toString());
        tally.record(m, dir.checkpointFile(), r.exit(), r.err());
        List<StatusEntry> history = dir.status().history();
        StatusEntry running = history.get(history.size() - 2);
        StatusEntry failed = history.get(history.size() - 1);
        if (running.state() != RunState.RUNNING || running.detail().contains("resumed")
                || failed.state() != RunState.FAILED || !failed.detail().startsWith(dir.checkpointFile().toString())
                || failed.detail().contains("Exception") || failed.detail().contains("java.")) {
            tally.breach(m, "recorded " + running + " then " + failed);
        }
    }

    private RunDir stoppedAtStep10() {
        RunDir dir = StagedExperiment.stage(tmp, "exp");
        dir.status().append(RunState.RUNNING, "pid 1");
        StopSignal stop = new StopSignal();
        TrainJob.run(dir, new TrainListener() {
            @Override
            public void onLog(long step, long total, double loss, double samplesPerSecond) {
                if (step == 10) {
                    stop.request("SIGTERM");
                }
            }
        }, stop);
        dir.status().append(RunState.KILLED, "stopped by SIGTERM at step 10; checkpoint saved");
        assertEquals(OptionalLong.of(10), TrainJob.verifiedCheckpointStep(dir));
        return dir;
    }

    private static Map<String, List<MetricRecord>> rows(ResultsStore store, RunDir dir) {
        Map<String, List<MetricRecord>> rows = new LinkedHashMap<>();
        MetricSpool.read(dir.metricsFile()).forEach(r -> rows.computeIfAbsent(r.name(),
                name -> store.series("id-exp", name)));
        assertTrue(rows.get("loss").size() >= 2, "the store holds the losses before the checkpoint");
        return rows;
    }
}
