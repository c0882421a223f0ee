package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs a tiny grid through the real command line, with real child JVMs, into a temporary working directory, and
 * checks what a researcher would look at: the exit code, the store's rows, the report files, and that a second run
 * starts nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GridRunEndToEndTest {
    private static final String GRID = """
            defaults:
              hidden: 16
              ngpu: 2
              batch_size: 8
              niters: 6
              log_interval: 2
              chkpt_iter: 3
            runs:
              tiny:
                prefix: t
                exclude: [hidden, ngpu, batch_size, niters, log_interval, chkpt_iter, bucket_size]
                seeds: 2
                grid:
                  - method: none
                  - method: qsgd
                    bits: 2
                    bucket_size: 64
            """;

    @TempDir
    static Path workdir;

    private Cli.Result first;
    /** The contents of reports/tiny/live.js seen while the first run ran, with pages reloading every second. */
    private final List<String> liveWhileRunning = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeAll
    void runGridOnce() throws IOException {
        Files.createDirectories(workdir.resolve("grids"));
        Files.writeString(workdir.resolve("grids/tiny.yaml"), GRID);
        Thread watcher = new Thread(this::watchLiveReport, "live.js watcher");
        watcher.setDaemon(true);
        watcher.start();
        first = gridRun("--grid", "tiny", "--jobs", "2", "--report-every", "1");
        watcher.interrupt();
    }

    private void watchLiveReport() {
        Path live = workdir.resolve("reports/tiny/live.js");
        while (!Thread.currentThread().isInterrupted()) {
            try {
                String text = Files.readString(live);
                if (text.contains("\"refresh\":1") && !liveWhileRunning.contains(text)) {
                    liveWhileRunning.add(text);
                }
                Thread.sleep(20);
            } catch (IOException notYet) {
                Thread.onSpinWait();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private Cli.Result gridRun(String... args) {
        return Cli.run(workdir, args);
    }

    @Test
    @Order(1)
    void everyExperimentCompletesAndLandsInTheStore() {
        assertEquals(0, first.exit(), () -> "exit code; out:\n" + first.out() + "\nerr:\n" + first.err());
        assertTrue(first.out().contains("grid tiny: 4 experiments, 0 already completed, 4 to run"), first.out());
        try (ResultsStore store = ResultsStore.open(workdir.resolve("runs/gridrun"))) {
            List<StoredExperiment> experiments = store.experiments("tiny", null);
            assertEquals(List.of("t_000_method_none,seed_1", "t_001_method_none,seed_2",
                    "t_002_method_qsgd,bits_2,seed_1", "t_003_method_qsgd,bits_2,seed_2"),
                    experiments.stream().map(StoredExperiment::name).toList());
            for (StoredExperiment e : experiments) {
                assertEquals(RunState.COMPLETED, e.state(), e.name());
                List<MetricRecord> accuracy = store.series(e.id(), "Vacc");
                assertEquals(List.of(3L, 6L), accuracy.stream().map(MetricRecord::step).toList(), e.name());
                accuracy.forEach(m -> assertTrue(m.value() >= 0 && m.value() <= 1, e.name() + " Vacc " + m));
                assertEquals(3, store.series(e.id(), "loss").size(), e.name() + " loss every 2 of 6 steps");
            }
            double fullBits = store.last(experiments.get(0).id(), "bits").orElseThrow();
            double qsgdBits = store.last(experiments.get(2).id(), "bits").orElseThrow();
            assertTrue(qsgdBits < fullBits / 10, "2-bit QSGD sends " + qsgdBits + " bits, float32 " + fullBits);
        }
    }

    @Test
    @Order(2)
    void theReportIsWrittenWithItsFigures() throws IOException {
        Path report = workdir.resolve("reports/tiny");
        String index = Files.readString(report.resolve("index.html"));
        assertTrue(index.contains("t_002_method_qsgd,bits_2,seed_1"), "index lists the experiments");
        for (String figure : List.of("loss.png", "loss.svg", "Vacc.png", "Vacc.svg")) {
            Path file = report.resolve("compare").resolve(figure);
            assertTrue(Files.size(file) > 100, figure + " written");
        }
        assertTrue(Files.isRegularFile(report.resolve("experiments/t_002_method_qsgd_bits_2_seed_1.html")),
                "a page per experiment");
        assertTrue(first.out().contains("report: " + Path.of("reports", "tiny", "index.html")), first.out());
        assertTrue(liveWhileRunning.stream().anyMatch(t -> t.contains("\"running\":[\"t_0")),
                "while the grid ran, live.js reloaded pages every second and named a running experiment: "
                        + liveWhileRunning);
        assertTrue(Files.readString(report.resolve("live.js")).contains("\"refresh\":0"),
                "the final report stops the reloads");
    }

    @Test
    @Order(3)
    void aSecondRunStartsNothing() throws IOException {
        Cli.Result again = gridRun("--grid", "tiny");
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("4 already completed, 0 to run"), again.out());
        assertTrue(again.out().contains("nothing to run"), again.out());
        RunDir dir = RunDir.at(workdir.resolve("runs/tiny/tiny/t_000_method_none,seed_1"));
        assertEquals(1, dir.status().history().stream().filter(s -> s.state() == RunState.RUNNING).count(),
                "the completed experiment was not started again");
    }

    @Test
    @Order(4)
    void addingAValueRunsOnlyTheNewExperiments() throws IOException {
        Files.writeString(workdir.resolve("grids/tiny.yaml"), GRID.replace("bits: 2", "bits: [2, 8]"));
        Cli.Result grown = gridRun("--grid", "tiny", "--dry-run");
        assertEquals(0, grown.exit(), grown.err());
        assertTrue(grown.out().contains("6 experiments, 4 already completed, 2 to run"), grown.out());
        assertTrue(grown.out().contains("dry run: nothing was written"), grown.out());
    }

    @Test
    void anUnknownKeyIsBadInputWithFileLineAndColumn() throws IOException {
        Path bad = workdir.resolve("bad.yaml");
        Files.writeString(bad, "runs:\n  r:\n    grid:\n      method: qsgd\n      bucketsize: 64\n");
        Cli.Result result = gridRun("--grid", bad.toString());
        assertEquals(2, result.exit(), result.err());
        assertTrue(result.err().contains("bad.yaml:5:7: unknown key 'bucketsize'; did you mean 'bucket_size'?"),
                result.err());
        assertTrue(!result.err().contains("\tat "), "no stack trace without --verbose");
    }

    @Test
    void aMistypedMethodIsCaughtAtItsPlaceWithASuggestion() throws IOException {
        Path bad = workdir.resolve("typo.yaml");
        Files.writeString(bad, "runs:\n  r:\n    grid:\n      method: [none, qsdg]\n");
        Cli.Result result = gridRun("--grid", bad.toString());
        assertEquals(2, result.exit(), result.err());
        assertTrue(result.err().contains(
                "typo.yaml:4:22: method must be one of [none, qsgd, "), result.err());
        assertTrue(result.err().contains("found 'qsdg'; did you mean 'qsgd'?"), result.err());
    }

    @Test
    void aValueOutOfRangeFailsBeforeAnyJobStarts() throws IOException {
        Path bad = workdir.resolve("range.yaml");
        Files.writeString(bad, "runs:\n  r:\n    grid:\n      method: qsgd\n      bits: [4, 0]\n");
        Cli.Result result = gridRun("--grid", bad.toString());
        assertEquals(2, result.exit(), result.err());
        assertTrue(result.err().contains("range.yaml:5:17: run 'r', experiment r_001_method_qsgd,bits_0: "
                + "bits must be in [1, 8], found 0"), result.err());
        assertTrue(!Files.exists(workdir.resolve("runs/range")), "no run directory was written");
    }

    @Test
    void aMissingGridIsBadInput() {
        Cli.Result result = gridRun("--grid", "no-such-grid");
        assertEquals(2, result.exit());
        assertTrue(result.err().contains("no-such-grid"), result.err());
    }

    @Test
    void trainWithoutARunDirectoryIsBadInput() {
        Cli.Result result = gridRun("train", workdir.resolve("nowhere").toString());
        assertEquals(2, result.exit());
        assertTrue(result.err().contains("experiment.yaml: not found"), result.err());
    }
}
