package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.data.FashionMnist;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The training modes and measurements of {@link MetricsConfig}, on a tiny MLP with a fixed seed. */
class MeasurementTest {
    private static final TrainTestData DATA = FashionMnist.subset();

    @TempDir
    Path dir;

    private int runs;

    private List<MetricRecord> train(Map<String, Object> params) {
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(params));
        Path spool = dir.resolve("metrics-" + (++runs) + ".csv");
        try (Backend backend = new CpuBackend();
             Trainer trainer = new Trainer(config, backend, DATA);
             MetricSpool.Writer out = MetricSpool.append(spool)) {
            assertFalse(trainer.run(out, TrainListener.NONE).diverged());
        }
        return MetricSpool.read(spool);
    }

    private static Map<String, Object> tiny(String method) {
        Map<String, Object> params = new HashMap<>();
        params.put("hidden", "16");
        params.put("ngpu", 2L);
        params.put("batch_size", 16L);
        params.put("lr", 0.05);
        params.put("niters", 12L);
        params.put("log_interval", 1L);
        params.put("chkpt_iter", 6L);
        params.put("method", method);
        if (method.equals("qsgd")) {
            params.put("bits", 2L);
            params.put("bucket_size", 64L);
        }
        return params;
    }

    private static Map<String, Object> measured(String method) {
        Map<String, Object> params = tiny(method);
        params.put("gvar_log_iter", 6L);
        params.put("gvar_estim_iter", 4L);
        return params;
    }

    private static double value(List<MetricRecord> records, String name, long step) {
        return records.stream().filter(r -> r.name().equals(name) && r.step() == step).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " at step " + step)).value();
    }

    private static List<Double> series(List<MetricRecord> records, String name) {
        return records.stream().filter(r -> r.name().equals(name)).map(MetricRecord::value).toList();
    }

    @Test
    void aLosslessMethodHasTheVarianceOfSgdAndTwoBitQsgdMore() {
        List<MetricRecord> none = train(measured("none"));
        List<MetricRecord> qsgd = train(measured("qsgd"));
        for (long step : List.of(6L, 12L)) {
            double sgd = value(none, "sgd_var", step);
            assertTrue(sgd > 0, "sgd_var " + sgd);
            assertEquals(sgd, value(none, "est_var", step), 0, "none compresses nothing");
        }
        double sgd = value(qsgd, "sgd_var", 6);
        double est = value(qsgd, "est_var", 6);
        assertTrue(est > 1.5 * sgd, "2-bit qsgd's est_var " + est + " against sgd_var " + sgd);
    }

    @Test
    void measureOnlyTrainsAsPlainSgdWhileMeasuringTheCompressor() {
        Map<String, Object> params = measured("qsgd");
        params.put("measure_only", true);
        List<MetricRecord> measuring = train(params);
        List<MetricRecord> plain = train(measured("none"));
        for (String name : List.of("loss", "Vloss", "Vacc", "sgd_var")) {
            assertEquals(series(plain, name), series(measuring, name), name);
        }
        assertTrue(value(measuring, "est_var", 12) > value(measuring, "sgd_var", 12));
        assertTrue(value(measuring, "bits", 12) < value(plain, "bits", 12) / 4, "the compressor's bits");
    }

    @Test
    void stepsBeforeCompressStartRunInFullPrecision() {
        Map<String, Object> params = tiny("qsgd");
        params.put("compress_start", 5L);
        List<MetricRecord> late = train(params);
        List<MetricRecord> plain = train(tiny("none"));
        List<MetricRecord> early = train(tiny("qsgd"));
        int n = 784 * 16 + 16 + 16 * 10 + 10;
        for (long step = 1; step <= 5; step++) {
            assertEquals(value(plain, "loss", step), value(late, "loss", step), 0, "step " + step);
            assertEquals(32.0 * n, value(late, "bits", step), 0);
        }
        assertEquals(value(plain, "loss", 6), value(late, "loss", 6), 0, "step 6 starts from the same parameters");
        assertNotEquals(value(plain, "loss", 7), value(late, "loss", 7), "step 6 was compressed");
        assertEquals(value(early, "bits", 6), value(late, "bits", 6), 0);
    }

    @Test
    void amqRecordsItsLevelsAndMultiplier() {
        Map<String, Object> params = measured("amq");
        params.put("bits", 2L);
        params.put("bucket_size", 64L);
        params.put("osnap_iter", "2,4");
        params.put("number_of_samples", 2L);
        List<MetricRecord> records = train(params);
        for (int j = 0; j < 4; j++) {
            assertTrue(Math.abs(value(records, "levels/" + j, 12)) <= 1);
        }
        double p = value(records, "multiplier", 12);
        assertTrue(p > 0 && p < 1, "p " + p);
        assertTrue(value(records, "nb_error", 12) > 0);
        assertEquals(-1, value(records, "levels/0", 6), 0);
    }

    @Test
    void trainAccuracyRecordsTlossAndTaccWithEachEvaluation() {
        Map<String, Object> params = tiny("none");
        assertTrue(train(params).stream().noneMatch(r -> r.name().equals("Tacc")));
        params.put("train_accuracy", true);
        List<MetricRecord> records = train(params);
        for (long step : List.of(6L, 12L)) {
            double acc = value(records, "Tacc", step);
            assertTrue(acc > 0 && acc <= 1, "Tacc " + acc);
            assertTrue(value(records, "Tloss", step) > 0);
        }
    }
}
