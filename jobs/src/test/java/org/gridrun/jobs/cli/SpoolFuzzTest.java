package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.SpoolLineParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged metric spools ingested again: each run directory's good {@code metrics.csv} is ingested, then replaced by a
 * seeded mutation ({@link Mutations}) and ingested again through the command line's error handler. It ends read or in
 * exit 2 naming the spool and the line (a line that is no record, or a record that says another value at the step
 * and wall time of a stored one); either way every row the store held is still there with its value. A spool whose
 * lines carry their checksum never has a damaged line stored as a record; one from before checksums is fuzzed too,
 * counting those it cannot tell. Prints one summary line per spool format.
 */
class SpoolFuzzTest {
    private static final long SEED = 20_261_128L;
    private static final List<String> METRICS = List.of("loss", "Vacc", "lr");

    @TempDir
    Path tmp;

    @Test
    void aDamagedSpoolNeverDeletesOrChangesStoredRowsNorStoresADamagedLine() throws IOException {
        fuzz("metrics.csv (store ingest)", spool(true), true, SEED);
    }

    @Test
    void aDamagedSpoolFromBeforeChecksumsNeverDeletesOrChangesStoredRows() throws IOException {
        fuzz("metrics.csv from before checksums (store ingest)", spool(false), false, SEED + 1);
    }

    /**
     * Ingests each mutation of {@code good} after the good spool; with {@code checked} lines, a row the store holds
     * afterwards that the good spool lacks (a damaged line stored as a record) is a breach, else it is counted.
     */
    private void fuzz(String reader, byte[] good, boolean checked, long seed) throws IOException {
        FuzzTally tally = new FuzzTally(reader, seed);
        List<Mutations.Mutation> cases = new Mutations(seed).of(good, 180);
        try (ResultsStore store = ResultsStore.openUrl("jdbc:h2:mem:spool-fuzz-" + checked)) {
            for (int i = 0; i < cases.size(); i++) {
                Mutations.Mutation m = cases.get(i);
                RunDir dir = stage(i);
                Files.write(dir.metricsFile(), good);
                store.ingest(dir);
                Map<String, List<MetricRecord>> before = rows(store, i);
                Files.write(dir.metricsFile(), m.bytes());
                tally.judge(m, dir.metricsFile(), () -> store.ingest(dir));
                Map<String, List<MetricRecord>> after = rows(store, i);
                tally.count(compare(tally, m, before, after));
                boolean foreign = !before.equals(after) && !goodRecords(good).containsAll(flat(after));
                if (foreign && checked) {
                    tally.breach(m, "a damaged line was stored as a record: " + flat(after));
                }
                tally.count(foreign ? "a damaged line stored as a record" : "no damaged line stored");
            }
        }
        tally.finish();
    }

    private static List<MetricRecord> flat(Map<String, List<MetricRecord>> rows) {
        return rows.values().stream().flatMap(List::stream).toList();
    }

    private static List<MetricRecord> goodRecords(byte[] good) throws IOException {
        Path file = Files.createTempFile("good", ".csv");
        try {
            return MetricSpool.read(Files.write(file, good));
        } finally {
            Files.delete(file);
        }
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

    /** Three metrics over 40 steps, as a trainer writes them ({@code checked}) or as one did before checksums. */
    private static byte[] spool(boolean checked) {
        StringBuilder text = new StringBuilder(checked ? MetricSpool.HEADER : MetricSpool.UNCHECKED_HEADER)
                .append('\n');
        for (int step = 1; step <= 40; step++) {
            line(text, checked, "loss", step, 2.0 / step, 1_700_000_000_000L + step);
            line(text, checked, "Vacc", step, 0.5 + step / 100.0, 1_700_000_000_500L + step);
            line(text, checked, "lr", step, 0.1, 1_700_000_000_900L + step);
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void line(StringBuilder text, boolean checked, String name, long step, double value, long wall) {
        text.append(checked ? SpoolLineParser.line(name, step, value, wall)
                : name + "," + step + "," + value + "," + wall).append('\n');
    }
}
