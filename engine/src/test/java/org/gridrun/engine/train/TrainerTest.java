package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.data.FashionMnist;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Smoke tests of the trainer on the Fashion-MNIST subset shipped in the jar. */
class TrainerTest {
    private static final TrainTestData DATA = FashionMnist.subset();

    @TempDir
    Path dir;

    private int runs;

    private List<MetricRecord> train(Map<String, Object> params, List<double[]> logs, TrainResult[] result) {
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(params));
        Path spool = dir.resolve("metrics-" + (++runs) + ".csv");
        try (Backend backend = new CpuBackend();
             Trainer trainer = new Trainer(config, backend, DATA);
             MetricSpool.Writer out = MetricSpool.append(spool)) {
            result[0] = trainer.run(out, new TrainListener() {
                @Override
                public void onLog(long step, long total, double loss, double samplesPerSecond) {
                    logs.add(new double[] {step, loss, samplesPerSecond});
                }
            });
        }
        return MetricSpool.read(spool);
    }

    private static Map<String, Object> small() {
        Map<String, Object> params = new HashMap<>();
        params.put("hidden", "32");
        params.put("ngpu", 2L);
        params.put("batch_size", 32L);
        params.put("lr", 0.05);
        params.put("niters", 80L);
        params.put("log_interval", 10L);
        params.put("chkpt_iter", 40L);
        return params;
    }

    @Test
    void qsgdTrainingLowersTheLossAndRecordsEveryMetric() {
        Map<String, Object> params = small();
        params.put("method", "qsgd");
        params.put("bits", 8L);
        params.put("bucket_size", 512L);
        List<double[]> logs = new ArrayList<>();
        TrainResult[] result = new TrainResult[1];
        List<MetricRecord> records = train(params, logs, result);

        assertEquals(8, logs.size());
        double first = logs.get(0)[1];
        double last = logs.get(logs.size() - 1)[1];
        assertTrue(last < 0.7 * first, "loss fell from " + first + " to " + last);
        assertTrue(logs.get(0)[2] > 0, "throughput is reported");

        Set<String> names = records.stream().map(MetricRecord::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of("loss", "Vloss", "Vacc", "bits", "value_bits", "side_bits", "bytes_sent",
                "ratio", "lr", "step_ms", "encode_ms", "decode_ms", "compute_ms", "comm_ms_model", "speedup_model")),
                names);
        assertEquals(List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L), steps(records, "loss"));
        assertEquals(List.of(40L, 80L), steps(records, "Vacc"));

        int n = 784 * 32 + 32 + 32 * 10 + 10;
        long bits = 32L * ((n + 511) / 512) + 8L * n;
        assertEquals(bits, value(records, "bits", 80), 0);
        assertEquals(32L * ((n + 511) / 512), value(records, "side_bits", 80), 0, "one norm per bucket");
        assertEquals(8L * n, value(records, "value_bits", 80), 0);
        assertEquals((bits + 7) / 8, value(records, "bytes_sent", 80), 0);
        assertEquals(32.0 * n / bits, value(records, "ratio", 80), 1e-9);
        assertEquals(0.05, value(records, "lr", 80), 0);

        assertFalse(result[0].diverged());
        assertEquals(80, result[0].steps());
        assertEquals(value(records, "Vacc", 80), result[0].finalAccuracy(), 0);
        assertTrue(result[0].finalAccuracy() > 0.6, "test accuracy " + result[0].finalAccuracy());
        assertEquals(DATA.source(), result[0].dataSource());
        assertEquals("cpu", result[0].backend());
    }

    /**
     * clip_average_norm clips the workers' average before the optimizer step: with one worker that is its gradient,
     * as clip_norm clips it, to the bit; with two the average is not either gradient; and a bound that the gradients
     * never reach changes nothing.
     */
    @Test
    void theAverageIsClippedAfterTheCollective() {
        Map<String, Object> params = small();
        params.put("niters", 20L);
        params.put("chkpt_iter", 20L);
        params.put("ngpu", 1L);
        List<String> plain = learning(params);
        params.put("clip_norm", 0.05);
        List<String> worker = learning(params);
        params.remove("clip_norm");
        params.put("clip_average_norm", 0.05);
        List<String> average = learning(params);
        assertEquals(worker, average, "one worker: its gradient is the average");
        assertNotEquals(plain, average, "a norm of 0.05 clips these gradients");

        params.put("ngpu", 2L);
        List<String> averageOfTwo = learning(params);
        params.remove("clip_average_norm");
        params.put("clip_norm", 0.05);
        assertNotEquals(learning(params), averageOfTwo, "two workers: clipping each is not clipping their average");
        params.remove("clip_norm");
        List<String> unclipped = learning(params);
        params.put("clip_average_norm", 1e9);
        assertEquals(unclipped, learning(params), "a bound never reached");
    }

    /** A run's loss and test metrics (name, step, value), the same bits run after run. */
    private List<String> learning(Map<String, Object> params) {
        return train(params, new ArrayList<>(), new TrainResult[1]).stream()
                .filter(r -> List.of("loss", "Vloss", "Vacc").contains(r.name()))
                .map(r -> r.name() + "@" + r.step() + "=" + r.value()).toList();
    }

    @Test
    void powerSgdTrainsThroughTheCollectiveStepAndCountsBothRounds() {
        Map<String, Object> params = small();
        params.put("method", "powersgd");
        params.put("niters", 40L);
        List<double[]> logs = new ArrayList<>();
        TrainResult[] result = new TrainResult[1];
        List<MetricRecord> records = train(params, logs, result);
        assertFalse(result[0].diverged());
        double first = logs.get(0)[1];
        double last = logs.get(logs.size() - 1)[1];
        assertTrue(last < 0.8 * first, "loss fell from " + first + " to " + last);
        // fc1 [32, 784] and fc2 [10, 32] at rank 2: P and Q of each; the biases raw.
        long bits = 32L * ((32 + 784) * 2 + (10 + 32) * 2 + 32 + 10);
        assertEquals(bits, value(records, "bits", 40), 0);
        assertEquals(bits / 8, value(records, "bytes_sent", 40), 0);
        assertEquals(0, value(records, "encode_ms", 40), 0, "no per-worker encode: the collective step ran");
    }

    @Test
    void anAdaptiveQuantizerRefitsDuringTrainingAndCompletes() {
        Map<String, Object> params = adaptive("alq_nb", 3L, 512L, "2,4", 20L);
        List<double[]> logs = new ArrayList<>();
        TrainResult[] result = new TrainResult[1];
        train(params, logs, result);
        assertFalse(result[0].diverged());
        assertEquals(20, result[0].steps());
        for (double[] log : logs) {
            assertTrue(Double.isFinite(log[1]), "loss at step " + log[0] + " is " + log[1]);
        }
    }

    @Test
    void theLevelsAreFittedToSampledGradientsNotTheEncodedOne() {
        // Without the trainer's sampler both runs would fit to the encoded gradient and be identical.
        Map<String, Object> params = adaptive("alq", 2L, 256L, "1", 10L);
        params.put("chkpt_iter", 10L);
        TrainResult[] result = new TrainResult[1];
        params.put("number_of_samples", 1L);
        List<double[]> one = new ArrayList<>();
        train(params, one, result);
        params.put("number_of_samples", 3L);
        List<double[]> three = new ArrayList<>();
        train(params, three, result);
        assertTrue(one.get(0)[1] != three.get(0)[1], "other samples give other levels and another run");
    }

    private static Map<String, Object> adaptive(String method, long bits, long bucketSize, String osnap, long niters) {
        Map<String, Object> params = small();
        params.put("method", method);
        params.put("bits", bits);
        params.put("bucket_size", bucketSize);
        params.put("osnap_iter", osnap);
        params.put("niters", niters);
        return params;
    }

    @Test
    void aSeedDeterminesTheRun() {
        Map<String, Object> params = small();
        params.put("method", "qsgd");
        params.put("bits", 2L);
        params.put("bucket_size", 64L);
        params.put("niters", 20L);
        params.put("chkpt_iter", 20L);
        TrainResult[] result = new TrainResult[1];
        List<double[]> first = new ArrayList<>();
        List<double[]> second = new ArrayList<>();
        train(params, first, result);
        double accuracy = result[0].finalAccuracy();
        train(params, second, result);
        assertEquals(accuracy, result[0].finalAccuracy(), 0);
        for (int i = 0; i < first.size(); i++) {
            assertEquals(first.get(i)[1], second.get(i)[1], 0, "loss at log " + i);
        }
        params.put("seed", 2L);
        List<double[]> third = new ArrayList<>();
        train(params, third, result);
        assertTrue(third.get(0)[1] != first.get(0)[1], "another seed gives another run");
    }

    @Test
    void aHugeLearningRateIsReportedAsDiverged() {
        Map<String, Object> params = small();
        params.put("lr", 1e30);
        List<double[]> logs = new ArrayList<>();
        TrainResult[] result = new TrainResult[1];
        List<MetricRecord> records = train(params, logs, result);
        assertTrue(result[0].diverged());
        assertTrue(result[0].steps() < 80, "stopped early at " + result[0].steps());
        assertTrue(Double.isNaN(result[0].finalAccuracy()));
        MetricRecord lastLoss = records.stream().filter(r -> r.name().equals("loss")).reduce((a, b) -> b)
                .orElseThrow();
        assertEquals(result[0].steps(), lastLoss.step());
        assertFalse(Double.isFinite(lastLoss.value()));
    }

    private static List<Long> steps(List<MetricRecord> records, String name) {
        return records.stream().filter(r -> r.name().equals(name)).map(MetricRecord::step).toList();
    }

    private static double value(List<MetricRecord> records, String name, long step) {
        return records.stream().filter(r -> r.name().equals(name) && r.step() == step).findFirst().orElseThrow()
                .value();
    }
}
