package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.data.IdxFiles;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SmaQ's memory mode: what training stores passes through the codec, and the reduction is measured. */
class MemoryModeTest {
    @TempDir
    Path tmp;

    private Path data;

    @BeforeEach
    void writeData() throws IOException {
        data = Files.createDirectories(tmp.resolve("data"));
        IdxFiles.writeSyntheticFashionMnist(data, 64, 16, 3);
    }

    private Map<String, Object> params(String codec, String targets) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("data_dir", data.toString());
        params.put("model", "lenet5");
        params.put("ngpu", 1L);
        params.put("batch_size", 8L);
        params.put("lr", 0.01);
        params.put("niters", 4L);
        params.put("log_interval", 2L);
        params.put("chkpt_iter", 4L);
        params.put("memory_codec", codec);
        params.put("memory_targets", targets);
        return params;
    }

    private float[] trainedWeights(Map<String, Object> params, List<MetricRecord> metrics) {
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(params));
        try (CpuBackend backend = new CpuBackend()) {
            Trainer trainer = new Trainer(config, backend, DataSets.load("fashion-mnist", data.toString()));
            Path spool = tmp.resolve("metrics-" + metrics.size() + "-" + System.nanoTime());
            try (MetricSpool.Writer out = MetricSpool.append(spool)) {
                trainer.run(out, TrainListener.NONE);
            }
            metrics.addAll(MetricSpool.read(spool));
            float[] weights = new float[trainer.model().parameterCount()];
            backend.download(trainer.model().parameters(), weights, 0);
            return weights;
        }
    }

    @Test
    void bf16WeightsAreStoredInBf16AndHalveTheMemory() {
        List<MetricRecord> metrics = new java.util.ArrayList<>();
        float[] weights = trainedWeights(params("bf16", "weights,optimizer"), metrics);
        for (float w : weights) {
            assertEquals(0, Float.floatToRawIntBits(w) & 0xFFFF, "a weight with more than bf16's bits: " + w);
        }
        List<Double> ratios = metrics.stream().filter(r -> r.name().equals("memory_ratio")).map(MetricRecord::value)
                .toList();
        assertEquals(List.of(2.0, 2.0), ratios);
    }

    @Test
    void smaqActivationsAndGradientsChangeTrainingAndReportItsRatio() {
        List<MetricRecord> metrics = new java.util.ArrayList<>();
        float[] plain = trainedWeights(params("", "weights"), metrics);
        float[] coded = trainedWeights(params("smaq", "activations,activation_gradients"), metrics);
        assertTrue(!java.util.Arrays.equals(plain, coded), "the codec had no effect");
        double ratio = metrics.stream().filter(r -> r.name().equals("memory_ratio")).mapToDouble(MetricRecord::value)
                .max().orElseThrow();
        assertTrue(ratio > 4.0 && ratio < 32.0 / 6, "SmaQ stores 6 bits a value and 8 an outlier, found ratio "
                + ratio);
    }

    @Test
    void activationTargetsNeedALayeredModel() {
        Map<String, Object> params = params("fp16", "activations");
        params.put("model", "mlp");
        ConfigException e = assertThrows(ConfigException.class,
                () -> TrainerConfig.from(TrainerConfig.resolve(params)));
        assertTrue(e.getMessage().startsWith("memory_targets activations and activation_gradients need a layered "
                + "model"), e.getMessage());
        params.put("memory_targets", "weights,gradients");
        assertEquals("memory_targets must list some of [weights, activations, activation_gradients, optimizer], "
                + "found 'gradients'", assertThrows(ConfigException.class,
                () -> TrainerConfig.from(TrainerConfig.resolve(params))).getMessage());
    }
}
