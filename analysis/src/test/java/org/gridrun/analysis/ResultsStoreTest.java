package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsStoreTest {
    @TempDir
    Path tmp;

    @Test
    void writesAndReadsBackAnIngestedRunDirectory() {
        ExperimentRecord e = Fixtures.experiment("nuq_000_method_qsgd", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp.resolve("runs"), e);
        dir.status().append(RunState.QUEUED, "job 17");
        dir.status().append(RunState.RUNNING, "");
        Fixtures.appendMetric(dir, "loss", 0, 50, 0.5);
        Fixtures.appendMetric(dir, "Vacc", 0, 5, 0.1);
        dir.status().append(RunState.COMPLETED, "exit 0");
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            assertEquals(55, store.ingest(dir));
            assertEquals(Optional.of(RunState.COMPLETED), store.state(e.id()));
            StoredExperiment stored = store.experiments("nuq", "r1").get(0);
            assertEquals(e.name(), stored.name());
            assertEquals(List.of("method", "bits", "seed"), List.copyOf(stored.params().keySet()));
            assertEquals(4L, stored.params().get("bits"));
            assertEquals(0.1, stored.config().get("lr"));
            assertEquals(Boolean.TRUE, stored.config().get("nesterov"));
            assertEquals(dir.path(), stored.runDir());
            assertEquals("exit 0", stored.detail());
            assertNotNull(stored.started());
            assertNotNull(stored.ended());
            List<MetricRecord> loss = store.series(e.id(), "loss");
            assertEquals(50, loss.size());
            assertEquals(new MetricRecord("loss", 49, 24.5, Fixtures.WALL + 49), loss.get(49));
            assertEquals(Optional.of(0.4), store.last(e.id(), "Vacc"));
            assertEquals(Optional.of(0.2), store.mean(e.id(), "Vacc"));
            assertEquals(Optional.empty(), store.last(e.id(), "nothing"));
            assertEquals(Optional.empty(), store.mean(e.id(), "nothing"));
        }
        assertTrue(Files.isRegularFile(tmp.resolve("db/gridrun.mv.db")));
    }

    @Test
    void submissionsAndTheJobOfEachAttemptAreKept() {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        dir.status().append(RunState.QUEUED, "slurm:41_0", "submitted");
        dir.status().append(RunState.RUNNING, "pid 7");
        Instant t = Instant.parse("2026-01-02T03:04:05Z");
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            store.ingest(dir);
            assertEquals("slurm:41_0", store.experiments("nuq", null).get(0).job());
            store.recordSubmission(new Submission("41", "g", "r", "jobs/a", "jobs/a_slurm.sbatch", 0, 2, 3, "", t));
            store.recordSubmission(new Submission("42", "g", "r2", "jobs/b", "jobs/b_slurm.sbatch", 2, 1, 1, "41",
                    t.plusSeconds(1)));
            assertEquals(List.of("41", "42"), store.submissions("g", null).stream().map(Submission::jobId).toList());
            Submission second = store.submissions("g", "r2").get(0);
            assertEquals(new Submission("42", "g", "r2", "jobs/b", "jobs/b_slurm.sbatch", 2, 1, 1, "41",
                    t.plusSeconds(1)), second);
        }
    }

    @Test
    void ingestingTwiceAddsEachRowOnce() throws Exception {
        RunDir dir = Fixtures.runDir(tmp, Fixtures.experiment("a", "qsgd", 4, 1));
        Fixtures.appendMetric(dir, "loss", 0, 100, 1);
        dir.status().append(RunState.RUNNING, "");
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            assertEquals(100, store.ingest(dir));
            Map<String, Long> first = StoreTables.counts(store);
            assertEquals(0, store.ingest(dir));
            assertEquals(first, StoreTables.counts(store));
            assertEquals(Map.of("experiments", 1L, "params", 6L, "runs", 1L, "metrics", 100L), first);
        }
    }

    @Test
    void reingestAfterAppendingAddsOnlyTheNewRecords() throws Exception {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        Fixtures.appendMetric(dir, "loss", 0, 10, 1);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            store.ingest(dir);
            Fixtures.appendMetric(dir, "loss", 10, 25, 1);
            Fixtures.appendMetric(dir, "Vacc", 0, 3, 1);
            assertEquals(18, store.ingest(dir));
            assertEquals(28L, StoreTables.counts(store).get("metrics"));
            assertEquals(25, store.series(e.id(), "loss").size());
        }
    }

    @Test
    void aStepLoggedAgainKeepsItsLaterValueAndTheExperimentKeepsItsCreationTime() throws Exception {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        Fixtures.appendMetric(dir, "loss", 0, 10, 1);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            store.ingest(dir);
            long created = StoreTables.scalar(store.url(), "SELECT EXTRACT(EPOCH FROM created) * 1000000 "
                    + "FROM experiments");
            Fixtures.appendMetric(dir, "loss", 5, 6, 10);
            assertEquals(1, store.ingest(dir));
            assertEquals(10, store.series(e.id(), "loss").size());
            assertEquals(50.0, store.series(e.id(), "loss").get(5).value());
            assertEquals(created, StoreTables.scalar(store.url(), "SELECT EXTRACT(EPOCH FROM created) * 1000000 "
                    + "FROM experiments"));
            assertEquals(1, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM params "
                    + "WHERE \"KEY\" = 'lr' AND \"VALUE\" = '0.1'"));
        }
    }

    @Test
    void aTornLastSpoolLineIsSkipped() throws IOException {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        Fixtures.appendMetric(dir, "loss", 0, 3, 1);
        Files.writeString(dir.metricsFile(), "loss,3,0.2", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            assertEquals(3, store.ingest(dir));
            assertEquals(3, store.series(e.id(), "loss").size());
        }
    }

    @Test
    void experimentsWithoutStatusOrMetricsAreListedWithoutState() {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            assertEquals(0, store.ingest(Fixtures.runDir(tmp, e)));
            StoredExperiment stored = store.experiments("nuq", null).get(0);
            assertNull(stored.state());
            assertEquals(Optional.empty(), store.state(e.id()));
            assertTrue(store.stateCounts("nuq", null).isEmpty());
        }
    }

    @Test
    void experimentsAreFilteredByRunAndOrderedByName() {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            for (String name : List.of("c", "a", "b")) {
                ExperimentRecord e = Fixtures.experiment(name, "qsgd", 4, 1);
                store.recordState(e, null, Fixtures.entry(RunState.STAGED, 0, "login", ""));
            }
            ExperimentRecord other = new ExperimentRecord("nuq", "r2", "z", "id-z", Map.of(), Map.of());
            store.recordState(other, null, Fixtures.entry(RunState.QUEUED, 0, "login", ""));
            assertEquals(List.of("a", "b", "c"), store.experiments("nuq", "r1").stream()
                    .map(StoredExperiment::name).toList());
            assertEquals(4, store.experiments("nuq", null).size());
            assertEquals(0, store.experiments("other", null).size());
            assertEquals(Map.of(RunState.STAGED, 3, RunState.QUEUED, 1), store.stateCounts("nuq", null));
            assertEquals(Map.of(RunState.QUEUED, 1), store.stateCounts("nuq", "r2"));
        }
    }

    @Test
    void recordedStatesAreNotOverwrittenByAnOlderStatusFile() {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        dir.status().append(RunState.STAGED, "");
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            store.recordState(e, dir.path(), Fixtures.entry(RunState.QUEUED, 4_000_000_000L, "login", "job 9"));
            store.ingest(dir);
            assertEquals(Optional.of(RunState.QUEUED), store.state(e.id()));
            assertEquals("job 9", store.experiments("nuq", null).get(0).detail());
        }
    }

    @Test
    void aSecondProcessStyleConnectionSeesTheSameStore() {
        ExperimentRecord e = Fixtures.experiment("a", "qsgd", 4, 1);
        Path file = tmp.resolve("shared");
        try (ResultsStore first = ResultsStore.open(file);
             ResultsStore second = ResultsStore.open(tmp.resolve("shared.mv.db"))) {
            first.recordState(e, null, Fixtures.entry(RunState.QUEUED, 0, "login", ""));
            assertEquals(Optional.of(RunState.QUEUED), second.state(e.id()));
        }
    }

    @Test
    void tensOfThousandsOfRecordsIngestCompletelyAndOnce() throws Exception {
        // Speed is measured by a benchmark command, not here; this checks that a large spool lands whole, once.
        ExperimentRecord e = Fixtures.experiment("big", "qsgd", 4, 1);
        RunDir dir = Fixtures.runDir(tmp, e);
        for (String metric : List.of("loss", "bits", "ratio", "encode_ms")) {
            Fixtures.appendMetric(dir, metric, 0, 5_000, 1);
        }
        try (ResultsStore store = ResultsStore.open(tmp.resolve("store"))) {
            assertEquals(20_000, store.ingest(dir));
            assertEquals(0, store.ingest(dir));
            for (String metric : List.of("loss", "bits", "ratio", "encode_ms")) {
                assertEquals(5_000, store.series(e.id(), metric).size(), metric);
            }
            assertEquals(20_000L, StoreTables.scalar(store.url(), "SELECT COUNT(*) FROM metrics"));
        }
    }
}
