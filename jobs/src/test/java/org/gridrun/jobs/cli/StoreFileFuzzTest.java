package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.FileWarnings;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged store: seeded mutations ({@link Mutations}) of a small store's {@code .mv.db}, each in a folder of its own
 * with the store's secret, opened (without H2's automatic server and lock file, which only cost time here) and read
 * as {@code grid-run report} reads it, through the command line's error handler. Each ends read or in exit 2 naming
 * the data file; a damaged store is never deleted or replaced by an empty one. H2 opens some damaged stores at an
 * older state (it falls back to older chunks), with rows missing: each such read must come with a warning naming the
 * store, the experiment and the records expected against found (from the store's {@code .gridrun-rows} witness).
 * Prints one summary line.
 */
class StoreFileFuzzTest {
    private static final long SEED = 20_261_131L;

    @TempDir
    Path tmp;

    @Test
    void aDamagedStoreIsNamedAndKept() throws IOException {
        Path good = Files.createDirectories(tmp.resolve("good")).resolve("gridrun");
        try (ResultsStore store = ResultsStore.openUrl("jdbc:h2:file:" + good)) {
            store.ingest(runDir());
        }
        List<MetricRecord> rows;
        try (ResultsStore store = ResultsStore.openUrl("jdbc:h2:file:" + good)) {
            rows = store.series("st1", "loss");
        }
        byte[] bytes = Files.readAllBytes(tmp.resolve("good/gridrun.mv.db"));
        byte[] secret = Files.readAllBytes(tmp.resolve("good/.gridrun-secret"));
        byte[] witness = Files.readAllBytes(tmp.resolve("good/.gridrun-rows"));
        FuzzTally tally = new FuzzTally("results store .mv.db (grid-run report)", SEED);
        try (FileWarnings.Capture capture = FileWarnings.capture()) {
            List<String> warned = capture.warnings();
            List<Mutations.Mutation> cases = new Mutations(SEED).of(bytes, 60);
            for (int i = 0; i < cases.size(); i++) {
                Mutations.Mutation m = cases.get(i);
                Path dir = Files.createDirectories(tmp.resolve("case" + i));
                Files.write(dir.resolve(".gridrun-secret"), secret);
                Files.write(dir.resolve(".gridrun-rows"), witness);
                capture.clear();
                Path file = Files.write(dir.resolve("gridrun.mv.db"), m.bytes());
                List<List<MetricRecord>> read = new java.util.ArrayList<>();
                String outcome = tally.judge(m, file, () -> {
                    try (ResultsStore store = ResultsStore.openUrl("jdbc:h2:file:" + dir.resolve("gridrun")
                            + ";FILE_LOCK=NO")) {
                        store.experiments("g", null);
                        return read.add(store.series("st1", "loss"));
                    }
                });
                if (outcome.equals(FuzzTally.READ)) {
                    boolean all = read.get(0).equals(rows);
                    boolean named = warned.stream().anyMatch(w -> w.startsWith("warning: " + file + ": rows lost: "
                            + "experiment st1 holds " + read.get(0).size() + " metric records where 20 were stored"));
                    tally.count(all ? "read with every row as stored" : named ? "read with rows missing, named"
                            : "read with rows missing, unnamed");
                    if (!all && !named) {
                        tally.breach(m, "the store lost rows without a word: " + warned);
                    }
                }
                if (!Files.exists(file) || Files.size(file) == 0 && m.bytes().length > 0) {
                    tally.breach(m, "the damaged store was deleted or emptied");
                }
            }
        }
        tally.finish();
    }

    private RunDir runDir() {
        Map<String, Object> params = Map.of("method", "qsgd");
        RunDir dir = RunDir.at(tmp.resolve("runs/g/r/e"));
        dir.writeExperiment(new ExperimentRecord("g", "r", "e", "st1", params, params));
        dir.status().append(RunState.COMPLETED, "Vacc 0.5000 after 20 steps; data: synthetic; backend: cpu");
        try (MetricSpool.Writer out = MetricSpool.append(dir.metricsFile())) {
            for (long step = 1; step <= 20; step++) {
                out.write(new MetricRecord("loss", step, 1.0 / step, 1_700_000_000_000L + step));
            }
        }
        return dir;
    }
}
