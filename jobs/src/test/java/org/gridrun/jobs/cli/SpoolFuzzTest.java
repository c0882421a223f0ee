package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged metric spools ingested again: each run directory's good {@code metrics.csv} is ingested, then replaced by a
 * seeded mutation ({@link Mutations}) and ingested again through the command line's error handler. It ends read or in
 * exit 2 naming the spool and the line (a line that is no record, or a record that says another value at the step
 * and wall time of a stored one); either way every row the store held is still there with its value. Prints one
 * summary line.
 */
class SpoolFuzzTest {
    private static final long SEED = 20_261_128L;
    private static final List<String> METRICS = List.of("loss", "Vacc", "lr");

    @TempDir
    Path tmp;

    @Test
    void aDamagedSpoolNeverDeletesOrChangesStoredRows() throws IOException {
        byte[] good = spool();
        FuzzTally tally = new FuzzTally("metrics.csv (store ingest)", SEED);
        List<Mutations.Mutation> cases = new Mutations(SEED).of(good, 180);
        try (ResultsStore store = ResultsStore.openUrl("jdbc:h2:mem:spool-fuzz")) {
            for (int i = 0; i < cases.size(); i++) {
                Mutations.Mutation m = cases.get(i);
                RunDir dir = stage(i);
                Files.write(dir.metricsFile(), good);
                store.ingest(dir);
                Map<String, List<MetricRecord>> before = rows(store, i);
                Files.write(dir.metricsFile(), m.bytes());
                tally.judge(m, dir.metricsFile(), () -> store.ingest(dir));
                tally.count(compare(tally, m, before, rows(store, i)));
            }
        }
        tally.finish();
    }

    /** Whether every stored row is still there with its value; a row lost or changed is a breach. */
    private static String compare(FuzzTally tally, Mutations.Mutation m, Map<String, List<MetricRecord>> before,
                                  Map<String, List<MetricRecord>> after) {
        for (String name : METRICS) {
            Map<Long, Double> now = new LinkedHashMap<>();
            after.get(name).forEach(r -> now.put(r.step(), r.value()));
            for (MetricRecord r : before.get(name)) {
                Double value = now.get(r.step());
                if (value == null || value != r.value()) {
                    tally.breach(m, "the stored row " + name + " step " + r.step() + " became " + value);
                    return "stored rows changed";
                }
            }
        }
        return "stored rows unchanged";
    }

    private static Map<String, List<MetricRecord>> rows(ResultsStore store, int i) {
        Map<String, List<MetricRecord>> rows = new LinkedHashMap<>();
        METRICS.forEach(name -> rows.put(name, store.series("sp-" + i, name)));
        return rows;
    }

    private RunDir stage(int i) {
        Map<String, Object> params = Map.of("method", "qsgd");
        RunDir dir = RunDir.at(tmp.resolve("runs/g/r/e" + i));
        dir.writeExperiment(new ExperimentRecord("g", "r", "e" + i, "sp-" + i, params, params));
        dir.status().append(RunState.RUNNING, "pid 1");
        return dir;
    }

    /** Three metrics over 40 steps, as a trainer writes them. */
    private static byte[] spool() {
        StringBuilder text = new StringBuilder(MetricSpool.HEADER).append('\n');
        for (int step = 1; step <= 40; step++) {
            text.append(String.format(Locale.ROOT, "loss,%d,%s,%d%n", step, 2.0 / step, 1_700_000_000_000L + step))
                    .append(String.format(Locale.ROOT, "Vacc,%d,%s,%d%n", step, 0.5 + step / 100.0,
                            1_700_000_000_500L + step))
                    .append(String.format(Locale.ROOT, "lr,%d,%s,%d%n", step, 0.1, 1_700_000_000_900L + step));
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
