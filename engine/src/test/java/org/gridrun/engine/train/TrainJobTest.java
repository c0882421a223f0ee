package org.gridrun.engine.train;

import org.gridrun.engine.config.ConfigException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.data.IdxFiles;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trains from a run directory, on a synthetic data set the test writes into a data_dir. */
class TrainJobTest {
    @TempDir
    Path tmp;

    private RunDir stage(Map<String, Object> params) {
        RunDir dir = RunDir.at(tmp.resolve("runs/g/r/exp"));
        dir.writeExperiment(new ExperimentRecord("g", "r", "exp", "id1", params, TrainerConfig.resolve(params)));
        return dir;
    }

    @Test
    void trainsFromTheRunDirectoryAndAppendsToItsSpool() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        IdxFiles.writeSyntheticFashionMnist(data, 400, 200, 7);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("data_dir", data.toString());
        params.put("hidden", "16");
        params.put("ngpu", 3L);
        params.put("batch_size", 16L);
        params.put("niters", 30L);
        params.put("chkpt_iter", 15L);
        params.put("method", "qsgd");
        params.put("bits", 4L);
        params.put("bucket_size", 256L);
        params.put("backend", "auto");
        RunDir dir = stage(params);
        List<String> events = new ArrayList<>();
        TrainResult result = TrainJob.run(dir, new TrainListener() {
            @Override
            public void onStart(String info) {
                events.add(info);
            }

            @Override
            public void onEval(long step, Headline headline, double loss, double accuracy) {
                events.add("eval " + step);
            }
        });
        assertFalse(result.diverged());
        assertEquals(30, result.steps());
        // auto runs on the GPU where one is usable, and the result says which backend ran.
        boolean gpu = org.gridrun.engine.backend.Backends.probe().stream()
                .anyMatch(p -> p.name().equals("cuda") && p.available());
        assertEquals(gpu ? "cuda" : "cpu", result.backend());
        assertEquals("Fashion-MNIST set from " + data + " (400 train / 200 test)", result.dataSource());
        assertTrue(result.finalAccuracy() > 0.5, "synthetic bands are easy: " + result.finalAccuracy());
        // on the GPU the 3 workers' passes run at once (concurrent_workers' default), and the line says so
        assertTrue(events.get(0).startsWith("mlp 784-16-10 (12730 parameters), 3 workers x batch 16"
                + (gpu ? " at once" : "") + ", qsgd "
                + "{bits=4, bucket_size=256, per_layer=false, ignore_small_buckets=false} (all-gather), 30 iterations; "
                + "data: Fashion-MNIST set from "),
                events.get(0));
        assertEquals(List.of("eval 15", "eval 30"), events.subList(1, 3));
        List<MetricRecord> records = MetricSpool.read(dir.metricsFile());
        assertEquals(2, records.stream().filter(r -> r.name().equals("Vacc")).count());
        assertEquals(3, records.stream().filter(r -> r.name().equals("loss")).count());
    }

    @Test
    void aBadConfigFailsWithItsMessage() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("lr", -0.1);
        RunDir dir = stage(params);
        BadFileException e = assertThrows(BadFileException.class, () -> TrainJob.run(dir, TrainListener.NONE));
        assertEquals(dir.experimentFile() + ": bad config: lr must be positive, found -0.1; stage it again from its "
                + "grid (grid-run --grid GRID writes the file), or fix the value", e.getMessage());
        assertTrue(e.getCause().getCause() instanceof ConfigException, "the cause is kept for --verbose");
    }
}
