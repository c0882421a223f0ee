package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.run.MetricSpool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small Vision Transformer learns the generated CIFAR-like images on two workers, with PowerSGD compressing its
 * attention and MLP weight matrices: the training loss falls and the test accuracy ends far above chance (0.1).
 */
class VitTrainingTest {
    @TempDir
    Path dir;

    @Test
    void smallVitLearnsSyntheticCifarWithPowerSgd() {
        TrainTestData data = DataSets.load("synthetic-cifar", "");
        Map<String, Object> params = new HashMap<>();
        params.put("dataset", "synthetic-cifar");
        params.put("model", "vit");
        params.put("vit_width", 32L);
        params.put("vit_depth", 2L);
        params.put("vit_heads", 2L);
        params.put("vit_mlp", 64L);
        params.put("ngpu", 2L);
        params.put("batch_size", 32L);
        params.put("optim", "adam");
        params.put("lr", 0.002);
        params.put("method", "powersgd");
        params.put("rank", 2L);
        params.put("error_feedback", true);
        params.put("niters", 150L);
        params.put("log_interval", 10L);
        params.put("chkpt_iter", 150L);
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(params));
        List<Double> losses = new ArrayList<>();
        TrainResult result;
        try (Backend backend = new CpuBackend();
             Trainer trainer = new Trainer(config, backend, data);
             MetricSpool.Writer out = MetricSpool.append(dir.resolve("metrics.csv"))) {
            result = trainer.run(out, new TrainListener() {
                @Override
                public void onLog(long step, long total, double loss, double samplesPerSecond) {
                    losses.add(loss);
                }
            });
        }
        assertEquals(15, losses.size());
        double first = losses.get(0);
        double last = losses.get(losses.size() - 1);
        System.out.printf("vit on synthetic-cifar: loss %.3f -> %.3f, test accuracy %.3f%n", first, last,
                result.finalAccuracy());
        assertTrue(last < 0.7 * first, "loss fell from " + first + " to " + last);
        assertTrue(result.finalAccuracy() > 0.4, "test accuracy " + result.finalAccuracy());
    }
}
