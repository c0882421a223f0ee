package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code grid-run report}: the site of one run or of all, from run directories alone, with or without a figure per
 * experiment; an unknown run is bad input.
 */
class ReportCommandTest {
    @TempDir
    Path tmp;

    private void finished(String run, String name, long seed) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("method", "qsgd");
        params.put("seed", seed);
        RunDir dir = RunDir.at(tmp.resolve("runs/g/" + run + "/" + name));
        dir.writeExperiment(new ExperimentRecord("g", run, name, "id-" + run + name, params, params));
        dir.status().append(RunState.RUNNING, "");
        try (MetricSpool.Writer out = MetricSpool.append(dir.metricsFile())) {
            for (int step = 0; step < 5; step++) {
                out.write(new MetricRecord("loss", step, 1.0 / (step + 1 + seed), step));
            }
        }
        dir.status().append(RunState.COMPLETED, "");
    }

    @Test
    void writesTheSiteOfOneRunAndRejectsAnUnknownRun() {
        finished("a", "s0", 0);
        finished("a", "s1", 1);
        finished("b", "other", 0);
        Cli.Result one = Cli.run(tmp, "report", "--grid", "g", "--run", "a");
        assertEquals(0, one.exit(), one.err());
        Path site = tmp.resolve("reports/g");
        assertTrue(Files.isRegularFile(site.resolve("experiments/s0.html")), one.out());
        assertFalse(Files.exists(site.resolve("experiments/other.html")), "run b is not in run a's report");
        assertTrue(Files.isRegularFile(site.resolve("compare/loss.png")), one.out());
        assertTrue(one.out().contains("report: 2 experiment pages, 1 comparison pages"), one.out());

        Cli.Result all = Cli.run(tmp, "report", "--grid", "g");
        assertEquals(0, all.exit(), all.err());
        assertTrue(Files.isRegularFile(site.resolve("experiments/other.html")), all.out());
        assertTrue(Files.isRegularFile(site.resolve("experiments/s0/loss.png")), all.out());

        Cli.Result lean = Cli.run(tmp, "report", "--grid", "g", "--no-experiment-figures");
        assertEquals(0, lean.exit(), lean.err());
        assertFalse(Files.exists(site.resolve("experiments/s0/loss.png")), "now stale, so removed: " + lean.out());
        assertTrue(Files.isRegularFile(site.resolve("compare/loss.png")), lean.out());
        assertTrue(lean.out().contains("6 stale files removed"), "3 experiments' PNG and SVG: " + lean.out());

        Cli.Result unknown = Cli.run(tmp, "report", "--grid", "g", "--run", "nope");
        assertEquals(2, unknown.exit(), unknown.out());
        assertTrue(unknown.err().contains("--run: grid 'g' has no run 'nope'"), unknown.err());
    }

    @Test
    void watchRewritesTheLiveReportWhileAnExperimentRunsAndEndsWithPagesThatNoLongerReload() throws Exception {
        finished("a", "s0", 0);
        // A stand-in trainer that lives until the watch has written its first report, however loaded the machine.
        Process trainer = new ProcessBuilder("sleep", "600").start();
        Map<String, Object> params = Map.of("method", "alq", "seed", 1L);
        RunDir dir = RunDir.at(tmp.resolve("runs/g/a/running"));
        dir.writeExperiment(new ExperimentRecord("g", "a", "running", "id-running", params, params));
        dir.status().append(RunState.RUNNING, "local:" + trainer.pid(), "pid " + trainer.pid());
        CompletableFuture<Cli.Result> watch = CompletableFuture.supplyAsync(
                () -> Cli.run(tmp, "report", "--grid", "g", "--watch", "--every", "1"));
        Path firstReport = tmp.resolve("reports/g/live.js");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(firstReport) && !watch.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        trainer.destroy();
        Cli.Result r = watch.get(120, TimeUnit.SECONDS);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("report: reports/g rewritten, 1 experiments queued or running"), r.out());
        assertTrue(r.out().contains("KILLED"), "the trainer ended without a final state: " + r.out());
        String live = Files.readString(tmp.resolve("reports/g/live.js"));
        assertTrue(live.contains("\"refresh\":0"), "the last report stops the pages' reloads: " + live);
        trainer.waitFor();
    }
}
