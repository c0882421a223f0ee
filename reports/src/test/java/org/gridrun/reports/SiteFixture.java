package org.gridrun.reports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;

/**
 * A small grid for the report's tests: three methods (qsgd 4 bits, none, topk) times two seeds, with loss, Vacc,
 * Vloss, bits and ratio; {@code topk} seed 1 diverges (its loss turns NaN at step {@value #DIVERGES_AT}).
 *
 * <p>Every value is a closed form of (method, seed, step), so tests can compute what the report must show without
 * the code under test.
 */
final class SiteFixture {
    static final String GRID = "nuq";
    static final String[] METHODS = {"qsgd", "none", "topk"};
    static final int STEPS = 20;
    static final int DIVERGES_AT = 12;
    static final String LOG_LINE = "step <b>&\"done\"";

    private SiteFixture() {
    }

    /** The experiment name of {@code method} and {@code seed}. */
    static String name(String method, int seed) {
        return method + "_seed" + seed;
    }

    /** The test accuracy that {@code method} with {@code seed} records at {@code step} (every fifth step). */
    static double vacc(int method, int seed, int step) {
        return (0.6 + 0.1 * method + 0.02 * seed) * (step + 1) / STEPS;
    }

    /** Whether the run of {@code method} and {@code seed} diverges. */
    static boolean diverges(int method, int seed) {
        return method == 2 && seed == 1;
    }

    /** Writes the run directories under {@code runs} and ingests those of {@code methods} into {@code store}. */
    static List<RunDir> ingest(ResultsStore store, Path runs, int... methods) {
        List<RunDir> dirs = new ArrayList<>();
        for (int g : methods) {
            for (int seed = 0; seed < 2; seed++) {
                RunDir dir = start(runs, g, seed);
                writeSpool(dir, g, seed, 0, STEPS);
                dir.status().append(diverges(g, seed) ? RunState.DIVERGED : RunState.COMPLETED,
                        diverges(g, seed) ? "loss is NaN at step " + DIVERGES_AT : "");
                store.ingest(dir);
                dirs.add(dir);
            }
        }
        return dirs;
    }

    /** Writes and ingests the run directory of {@code method} and {@code seed}, RUNNING at step {@code steps}. */
    static RunDir startRunning(ResultsStore store, Path runs, int method, int seed, int steps) {
        RunDir dir = start(runs, method, seed);
        writeSpool(dir, method, seed, 0, steps);
        store.ingest(dir);
        return dir;
    }

    private static RunDir start(Path runs, int method, int seed) {
        ExperimentRecord e = experiment(METHODS[method], seed);
        RunDir dir = RunDir.at(runs.resolve(e.name()));
        dir.writeExperiment(e);
        dir.status().append(RunState.RUNNING, "local:7", "");
        writeLog(dir);
        return dir;
    }

    /** Writes the rest of the steps of {@link #startRunning}'s experiment, COMPLETED, and ingests it. */
    static void complete(ResultsStore store, RunDir dir, int method, int seed, int from) {
        writeSpool(dir, method, seed, from, STEPS);
        dir.status().append(RunState.COMPLETED, "");
        store.ingest(dir);
    }

    private static void writeSpool(RunDir dir, int g, int seed, int from, int to) {
        try (MetricSpool.Writer out = MetricSpool.append(dir.metricsFile())) {
            for (int step = from; step < to; step++) {
                boolean nan = diverges(g, seed) && step >= DIVERGES_AT;
                out.write(new MetricRecord("loss", step, nan ? Double.NaN : 2.0 / (step + 1) + 0.01 * seed + 0.1 * g,
                        step));
                if (nan) {
                    break;
                }
                out.write(new MetricRecord("bits", step, g == 1 ? 3_200_000 : 203_500, step));
                out.write(new MetricRecord("ratio", step, g == 1 ? 1 : 8 + g, step));
                if (step % 5 == 4) {
                    out.write(new MetricRecord("Vacc", step, vacc(g, seed, step), step));
                    out.write(new MetricRecord("Vloss", step, 1.0 / (step + 1), step));
                }
            }
        }
    }

    private static void writeLog(RunDir dir) {
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < 80; i++) {
            log.append("line ").append(i).append('\n');
        }
        log.append(LOG_LINE).append('\n');
        try {
            Files.writeString(dir.logFile(), log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ExperimentRecord experiment(String method, int seed) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("method", method);
        if (!method.equals("none")) {
            params.put("bits", 4L);
        }
        params.put("seed", (long) seed);
        return new ExperimentRecord(GRID, "r1", name(method, seed), "id-" + name(method, seed), params, params);
    }
}
