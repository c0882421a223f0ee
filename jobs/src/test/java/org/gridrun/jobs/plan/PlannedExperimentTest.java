package org.gridrun.jobs.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.train.TrainerConfig;
import org.junit.jupiter.api.Test;

class PlannedExperimentTest {
    private static PlannedExperiment planned(Map<String, Object> params) {
        Map<String, Object> config = TrainerConfig.validate(params);
        return new PlannedExperiment(new ExperimentRecord("g", "r", "e", "id", params, config),
                RunDir.at(Path.of("unused")), null);
    }

    @Test
    void progressCountsNitersWithoutEpochs() {
        assertEquals(700, planned(Map.of("niters", 700)).iterations());
    }

    @Test
    void progressCountsEpochsOfThePublishedTrainingSetInBatches() {
        // 60000 / 128 rounded up = 469 per epoch, as the trainer counts on the full Fashion-MNIST
        assertEquals(3 * 469, planned(Map.of("epochs", 3, "batch_size", 128, "niters", 10)).iterations());
        // CIFAR-10: 50000 / 100 = 500
        assertEquals(500, planned(Map.of("epochs", 1, "batch_size", 100, "dataset", "cifar10", "model", "resnet20"))
                .iterations());
    }
}
