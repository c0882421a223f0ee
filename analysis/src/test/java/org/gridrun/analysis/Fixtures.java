package org.gridrun.analysis;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;

/** Builds run directories and records for the tests. */
final class Fixtures {
    static final long WALL = 1_700_000_000_000L;

    private Fixtures() {
    }

    /** An experiment of grid {@code nuq}, run {@code r1}, with params method, bits, seed. */
    static ExperimentRecord experiment(String name, String method, long bits, long seed) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("method", method);
        params.put("bits", bits);
        params.put("seed", seed);
        Map<String, Object> config = new LinkedHashMap<>(params);
        config.put("lr", 0.1);
        config.put("nesterov", true);
        config.put("dataset", "fashion-mnist");
        return new ExperimentRecord("nuq", "r1", name, "id-" + name, params, config);
    }

    /** A staged run directory under {@code root}, with the experiment written. */
    static RunDir runDir(Path root, ExperimentRecord experiment) {
        RunDir dir = RunDir.at(root.resolve(experiment.grid()).resolve(experiment.run()).resolve(experiment.name()));
        dir.writeExperiment(experiment);
        return dir;
    }

    /** Appends records {@code name} for steps {@code from} (inclusive) to {@code to} (exclusive). */
    static void appendMetric(RunDir dir, String name, long from, long to, double scale) {
        appendMetric(dir, name, from, to, scale, 0);
    }

    /** As {@link #appendMetric(RunDir, String, long, long, double)}, logged {@code later} ms later. */
    static void appendMetric(RunDir dir, String name, long from, long to, double scale, long later) {
        try (MetricSpool.Writer writer = MetricSpool.append(dir.metricsFile())) {
            for (long step = from; step < to; step++) {
                writer.write(new org.gridrun.engine.run.MetricRecord(name, step, scale * step, WALL + later + step));
            }
        }
    }

    static StatusEntry entry(RunState state, long second, String host, String detail) {
        return new StatusEntry(state, Instant.ofEpochSecond(1_700_000_000L + second), host, detail);
    }
}
