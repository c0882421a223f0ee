package org.gridrun.reports.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.RunSummary;
import org.gridrun.analysis.SeedSummary;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Figures and tables from a fixture store: two methods (none on 1 and 4 workers, alq on 4) of two seeds each, with
 * random est_var, Vacc and bytes_sent series; the table numbers are checked against RunSummary and SeedSummary
 * computed here from the same records.
 */
class PaperFiguresTest {
    private static final String SPEC = """
            grid: g
            last: 5
            series_sets:
              s:
                - {label: SGD, colour: '#000000', match: {method: none, ngpu: 1}}
                - {label: ALQ, colour: '#2ca02c', match: {method: alq}}
                - {label: AMQ, colour: '#d62728', match: {method: amq}}
            figures:
              - name: est_var
                run: r
                metric: est_var
                log_y: true
                series: s
                table: true
            tables:
              - name: t
                run: r
                train_size: 1280
                rows: s
                columns:
                  - {title: Acc, metric: Vacc, scale: 100}
                  - {title: MB, metric: bytes_sent, stat: mean, scale: 1.0e-6, per_epoch: true}
            """;

    @TempDir
    Path tmp;

    private final Map<String, List<MetricRecord>> written = new LinkedHashMap<>();

    @Test
    void writesFiguresAndTablesWhoseNumbersAreTheSeedSummariesOfTheLastFiveEvaluations() throws IOException {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            ingest(store, "none", 1);
            ingest(store, "alq", 4);
            PaperSpec spec = SpecReader.parse(SPEC, "figures/t.yaml", "t");
            PaperResult result = PaperFigures.write(store, spec, tmp.resolve("out"));
            for (String file : List.of("est_var.png", "est_var.svg", "est_var.md", "est_var.csv", "est_var.tex",
                    "t.md", "t.csv", "t.tex")) {
                assertTrue(Files.size(tmp.resolve("out").resolve(file)) > 0, file);
            }
            assertEquals(8, result.files().size());

            PaperTable figureTable = result.tables().get(0);
            assertEquals(List.of("SGD", "ALQ", "AMQ"), figureTable.rows().stream().map(PaperTable.Row::label)
                    .toList());
            assertSummary(expected("none", 1, "est_var", 1), figureTable.rows().get(0).cells().get(0));
            assertSummary(expected("alq", 4, "est_var", 1), figureTable.rows().get(1).cells().get(0));
            assertEquals(0, figureTable.rows().get(2).cells().get(0).n());

            PaperTable table = result.tables().get(1);
            assertSummary(expected("alq", 4, "Vacc", 100), table.rows().get(1).cells().get(0));
            SeedSummary mb = table.rows().get(1).cells().get(1);
            double perEpoch = 1280.0 / (32 * 4);
            double[] values = {meanOf("alq", 4, 1) * 1e-6 * perEpoch, meanOf("alq", 4, 2) * 1e-6 * perEpoch};
            assertSummary(SeedSummary.of(values), mb);

            String md = Files.readString(tmp.resolve("out/t.md"), StandardCharsets.UTF_8);
            assertTrue(md.contains("| ALQ | " + PaperTable.meanSd(table.rows().get(1).cells().get(0), 2) + " |"), md);
            assertTrue(md.contains("| AMQ | — | — |"), md);
            String tex = Files.readString(tmp.resolve("out/t.tex"), StandardCharsets.UTF_8);
            assertTrue(tex.contains("\\pm"), tex);
            assertTrue(result.markdown().contains(md), result.markdown());
            assertTrue(Files.readString(tmp.resolve("out/est_var.svg"), StandardCharsets.UTF_8).contains("<svg"));
            assertEquals(List.of("figures/t.yaml:7: figure 'est_var', series 'AMQ': no experiment of grid g run(s) r"
                    + " matches {method=amq}; left out (run the grid, or fix match)",
                    "figures/t.yaml:7: table 't', series 'AMQ': no experiment of grid g run(s) r"
                    + " matches {method=amq}; left out (run the grid, or fix match)"), result.warnings());
        }
    }

    @Test
    void missingSeriesAndMetricsAreWarningsNamingFileLineAndSeries() {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            ingest(store, "none", 1);
            PaperSpec spec = SpecReader.parse(SPEC.replace("metric: est_var", "metric: nb_error"), "figures/t.yaml",
                    "t");
            PaperResult result = PaperFigures.write(store, spec, tmp.resolve("out"));
            List<String> w = result.warnings();
            assertTrue(w.contains("figures/t.yaml:6: figure 'est_var', series 'ALQ': no experiment of grid g run(s) r"
                    + " matches {method=alq}; left out (run the grid, or fix match)"), w.toString());
            assertTrue(w.contains("figures/t.yaml:5: figure 'est_var', series 'SGD': 2 experiment(s) match but none"
                    + " has plottable 'nb_error' records (a log axis needs values above 0); left out"), w.toString());
            assertTrue(w.contains("figures/t.yaml:9: figure 'est_var': no series has data; figure not written"),
                    w.toString());
            assertTrue(w.stream().anyMatch(m -> m.startsWith("figures/t.yaml:5: figure 'est_var', series 'SGD': "
                    + "experiment none_1_seed1 has no nb_error records")), w.toString());
            assertFalse(Files.exists(tmp.resolve("out/est_var.png")));
            assertTrue(Files.exists(tmp.resolve("out/est_var.md")), "the table is still written, with dashes");
        }
    }

    @Test
    void aTableCountingAnExperimentThatEndedBadlySaysSoBesideItsRow() {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db/gridrun"))) {
            ingest(store, "alq", 4);
            RunDir failed = RunDir.at(tmp.resolve("runs").resolve("alq_4_seed2"));
            failed.status().append(RunState.FAILED, "checkpoint.bin: cannot resume from this checkpoint");
            store.ingest(failed);
            PaperResult result = PaperFigures.write(store, SpecReader.parse(SPEC, "figures/t.yaml", "t"),
                    tmp.resolve("out"));
            assertTrue(result.warnings().contains("figures/t.yaml:6: table 't', series 'ALQ': experiment alq_4_seed2 "
                    + "ended FAILED; its numbers up to then are in the row (resubmit it, or leave it out with match)"),
                    result.warnings().toString());
        }
    }

    private static void assertSummary(SeedSummary want, SeedSummary have) {
        assertEquals(want.n(), have.n());
        assertEquals(want.mean(), have.mean(), 1e-12);
        assertEquals(want.std(), have.std(), 1e-12);
    }

    /** The oracle: SeedSummary over seeds of RunSummary.of(series, 5).lastK, times {@code scale}. */
    private SeedSummary expected(String method, int ngpu, String metric, double scale) {
        double[] values = new double[2];
        for (int seed = 1; seed <= 2; seed++) {
            values[seed - 1] = RunSummary.of(written.get(key(method, ngpu, seed, metric)), 5).lastK() * scale;
        }
        return SeedSummary.of(values);
    }

    private double meanOf(String method, int ngpu, int seed) {
        return written.get(key(method, ngpu, seed, "bytes_sent")).stream().mapToDouble(MetricRecord::value)
                .average().orElseThrow();
    }

    private static String key(String method, int ngpu, int seed, String metric) {
        return method + "_" + ngpu + "_seed" + seed + "/" + metric;
    }

    private void ingest(ResultsStore store, String method, int ngpu) {
        Random random = new Random(method.hashCode() + ngpu);
        for (int seed = 1; seed <= 2; seed++) {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("method", method);
            params.put("ngpu", (long) ngpu);
            params.put("seed", (long) seed);
            Map<String, Object> config = new LinkedHashMap<>(params);
            config.put("batch_size", 32);
            config.put("lr_decay_iters", "60");
            String name = method + "_" + ngpu + "_seed" + seed;
            ExperimentRecord e = new ExperimentRecord("g", "r", name, "id-" + name, params, config);
            RunDir dir = RunDir.at(tmp.resolve("runs").resolve(name));
            dir.writeExperiment(e);
            dir.status().append(RunState.RUNNING, "");
            try (MetricSpool.Writer out = MetricSpool.append(dir.metricsFile())) {
                for (String metric : List.of("est_var", "Vacc", "bytes_sent")) {
                    List<MetricRecord> series = new ArrayList<>();
                    for (int step = 10; step <= 100; step += 10) {
                        MetricRecord r = new MetricRecord(metric, step, 0.01 + random.nextDouble(), 0);
                        out.write(r);
                        series.add(r);
                    }
                    written.put(name + "/" + metric, series);
                }
            }
            dir.status().append(RunState.COMPLETED, "");
            store.ingest(dir);
        }
    }
}
