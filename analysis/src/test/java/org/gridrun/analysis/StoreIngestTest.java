package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreIngestTest {
    @TempDir
    Path tmp;

    @Test
    void anIngestStoppedBetweenBatchesIsFinishedByTheNextWithEachRowOnce() throws Exception {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        Fixtures.appendMetric(dir, "loss", 0, 2_500, 1);
        Fixtures.appendMetric(dir, "Vacc", 0, 2_500, 0.5);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            int[] batches = {0};
            IllegalStateException crash = assertThrows(IllegalStateException.class, () -> store.ingest(dir, 1_000,
                    batch -> {
                        if (++batches[0] == 2) {
                            throw new IllegalStateException("killed after the second commit");
                        }
                    }));
            assertEquals("killed after the second commit", crash.getMessage());
            assertEquals(2_000L, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM metrics"));
            assertEquals(3_000, store.ingest(dir, 1_000, batch -> { }));
            assertEquals(0, store.ingest(dir));
            assertWhole(store, e, 2_500);
        }
    }

    @Test
    void aPrefixCutMidLineThenTheWholeSpoolStoresEachRowOnce() throws Exception {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir whole = Fixtures.runDir(tmp.resolve("whole"), e);
        Fixtures.appendMetric(whole, "loss", 0, 2_500, 1);
        Fixtures.appendMetric(whole, "Vacc", 0, 2_500, 0.5);
        byte[] bytes = Files.readAllBytes(whole.metricsFile());
        RunDir dir = Fixtures.runDir(tmp.resolve("job"), e);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            for (int cut : new int[] {bytes.length / 3 + 5, bytes.length / 2 + 7, bytes.length}) {
                Files.write(dir.metricsFile(), java.util.Arrays.copyOf(bytes, cut));
                store.ingest(dir, 700, batch -> { });
                store.ingest(dir, 700, batch -> { });
            }
            assertWhole(store, e, 2_500);
        }
    }

    @Test
    void aSpoolTruncatedByAResumedJobIsComparedWholeAndKeepsTheNewValues() throws Exception {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        Fixtures.appendMetric(dir, "loss", 0, 100, 1);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            store.ingest(dir);
            MetricSpool.truncateAfter(dir.metricsFile(), 49);
            Fixtures.appendMetric(dir, "loss", 50, 120, 2, 60_000); // a resumed job logs those steps again, later
            assertEquals(120, store.ingest(dir));
            List<MetricRecord> loss = store.series(e.id(), "loss");
            assertEquals(120, loss.size());
            assertEquals(49.0, loss.get(49).value());
            assertEquals(100.0, loss.get(50).value());
            assertEquals(new MetricRecord("loss", 119, 238, Fixtures.WALL + 60_000 + 119), store.latest(e.id()).get("loss"));
        }
    }

    @Test
    void aSpoolLineChangedAfterItWasStoredIsRefusedAndTheStoredRowKept() throws Exception {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        Fixtures.appendMetric(dir, "loss", 0, 10, 1);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            store.ingest(dir);
            String text = Files.readString(dir.metricsFile());
            Files.writeString(dir.metricsFile(), text.replace("loss,7,7.0,", "loss,7,9.0,"));
            BadFileException refused = assertThrows(BadFileException.class, () -> store.ingest(dir));
            assertTrue(refused.getMessage().startsWith(dir.metricsFile() + ", line 9: expected a record "
                    + MetricSpool.HEADER + " whose checksum matches the line, found 'loss,7,9.0,"),
                    refused.getMessage());
            assertEquals(7.0, store.series(e.id(), "loss").get(7).value());

            String older = text.replace(MetricSpool.HEADER, MetricSpool.UNCHECKED_HEADER)
                    .replaceAll(",[0-9a-f]{8}\n", "\n");
            Files.writeString(dir.metricsFile(), older.replace("loss,7,7.0,", "loss,7,9.0,"));
            refused = assertThrows(BadFileException.class, () -> store.ingest(dir));
            assertEquals(dir.metricsFile() + ": the record loss step 7 logged at wall_ms " + (Fixtures.WALL + 7)
                    + " is stored as 7.0 but reads 9.0: a line was changed after it was written; the store keeps "
                    + "the row it has; restore the spool from a copy", refused.getMessage(), "a spool from before "
                    + "checksums is compared with the stored rows");
            assertEquals(7.0, store.series(e.id(), "loss").get(7).value());
        }
    }

    @Test
    void everyAttemptIsKeptWithItsExitCodeTraceAndBackend() throws Exception {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        dir.status().append(RunState.QUEUED, "slurm:41_0", "submitted");
        dir.status().append(RunState.RUNNING, "slurm:41_0", "pid 7; git 0123abcd+dirty");
        dir.status().append(RunState.FAILED, "java.lang.OutOfMemoryError: exit 3");
        dir.status().append(RunState.QUEUED, "slurm:42_0", "resubmitted");
        dir.status().append(RunState.RUNNING, "slurm:42_0", "pid 8");
        Fixtures.appendMetric(dir, "loss", 0, 10, 1);
        dir.status().append(RunState.COMPLETED, "Vacc 0.9000 after 10 steps; data: synthetic; backend: cpu");
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            store.ingest(dir);
            store.ingest(dir);
            List<Attempt> attempts = store.attempts(e.id());
            assertEquals(2, attempts.size());
            Attempt first = attempts.get(0);
            assertEquals(List.of(1, RunState.FAILED, "slurm:41_0", 3, "java.lang.OutOfMemoryError: exit 3",
                    "0123abcd", true), List.of(first.number(), first.state(), first.job(), first.exitCode(),
                    first.failTrace(), first.gitCommit(), first.gitDirty()));
            assertNull(first.backend());
            Attempt second = attempts.get(1);
            assertEquals(List.of(2, RunState.COMPLETED, "slurm:42_0", 0, "cpu"), List.of(second.number(),
                    second.state(), second.job(), second.exitCode(), second.backend()));
            assertNull(second.failTrace());
            assertNull(second.gitCommit());
            assertEquals(10L, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM metrics WHERE attempt = 2"));
        }
    }

    @Test
    void recordedStatesOpenAndContinueAttempts() {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            store.recordState(e, null, Fixtures.entry(RunState.STAGED, 0, "login", ""));
            store.recordState(e, null, Fixtures.entry(RunState.QUEUED, 1, "login", ""));
            store.recordState(e, null, Fixtures.entry(RunState.KILLED, 2, "login", "cancelled"));
            store.recordState(e, null, Fixtures.entry(RunState.QUEUED, 3, "login", ""));
            List<Attempt> attempts = store.attempts(e.id());
            assertEquals(List.of(RunState.KILLED, RunState.QUEUED), attempts.stream().map(Attempt::state).toList());
            assertEquals("cancelled", attempts.get(0).failTrace());
        }
    }

    @Test
    void theHashCoversTheResolvedConfigWhateverItsKeyOrder() throws Exception {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        Map<String, Object> reversed = new java.util.LinkedHashMap<>();
        List<String> keys = new java.util.ArrayList<>(e.config().keySet());
        java.util.Collections.reverse(keys);
        keys.forEach(k -> reversed.put(k, e.config().get(k)));
        ExperimentRecord same = new ExperimentRecord("other", "r9", "b", "id-b", Map.of(), reversed);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            store.ingest(Fixtures.runDir(tmp, e));
            store.ingest(Fixtures.runDir(tmp, same));
            assertEquals(1, StoreTables.scalar(store.url(), "SELECT COUNT(DISTINCT hash) FROM experiments"));
            assertEquals(64, StoreTables.scalar(store.url(), "SELECT MIN(LENGTH(hash)) FROM experiments"));
            assertFalse(e.config().keySet().iterator().next().equals(keys.get(0)));
        }
    }

    private static void assertWhole(ResultsStore store, ExperimentRecord e, int steps) throws Exception {
        assertEquals(2L * steps, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM metrics"));
        List<MetricRecord> loss = store.series(e.id(), "loss");
        List<MetricRecord> vacc = store.series(e.id(), "Vacc");
        for (int step = 0; step < steps; step++) {
            assertEquals(new MetricRecord("loss", step, step, Fixtures.WALL + step), loss.get(step));
            assertEquals(new MetricRecord("Vacc", step, 0.5 * step, Fixtures.WALL + step), vacc.get(step));
        }
        assertEquals(Map.of("loss", loss.get(steps - 1), "Vacc", vacc.get(steps - 1)), store.latest(e.id()));
    }
}
