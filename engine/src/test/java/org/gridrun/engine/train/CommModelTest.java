package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.gridrun.engine.compress.Aggregation;
import org.junit.jupiter.api.Test;

/** {@link CommModel} against times worked out by hand. */
class CommModelTest {
    /** W = 4, 10 µs, 1 GB/s. */
    private final CommModel model = new CommModel(10e-6, 1e9, 4);

    @Test
    void ringAllReduceSendsTwiceThreeQuartersOfTheMessage() {
        // 2·3·10 µs + 2·3/4 · 1e6 B / 1e9 B/s = 60 µs + 1.5 ms
        assertEquals(1.56e-3, model.allReduceSeconds(1e6), 1e-12);
        assertEquals(1.56e-3, model.seconds(Aggregation.ALL_REDUCE, 1e6), 1e-12);
    }

    @Test
    void allGatherSendsEveryOtherWorkersMessage() {
        // 3·10 µs + 3 · 1e6 B / 1e9 B/s = 30 µs + 3 ms
        assertEquals(3.03e-3, model.allGatherSeconds(1e6), 1e-12);
        assertEquals(3.03e-3, model.seconds(Aggregation.ALL_GATHER, 1e6), 1e-12);
    }

    @Test
    void fullPrecisionIsAnAllReduceOfFourBytesPerParameterAndSetsTheSpeedup() {
        // 250,000 parameters: 1e6 bytes, as above.
        assertEquals(1.56e-3, model.fullPrecisionSeconds(250_000), 1e-12);
        // (2 + 1.56) / (2 + 0.1 + 0.2 + 0.5) ms
        assertEquals(3.56 / 2.8, CommModel.speedup(2, 0.1, 0.2, 0.5, 1.56), 1e-12);
    }

    @Test
    void oneWorkerTalksToNoOne() {
        CommModel alone = new CommModel(10e-6, 1e9, 1);
        assertEquals(0, alone.allReduceSeconds(1e6), 0);
        assertEquals(0, alone.allGatherSeconds(1e6), 0);
    }

    @Test
    void theConfigurationGivesMicrosecondsAndGigabitsAndDefaultsToNgpuWorkers() {
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(java.util.Map.of("ngpu", 4L)));
        CommModel fromConfig = config.metrics().commModel(4);
        assertEquals(10e-6, fromConfig.latencySeconds(), 1e-18);
        assertEquals(1.25e9, fromConfig.bytesPerSecond(), 0);
        assertEquals(4, fromConfig.workers());
        TrainerConfig eight = TrainerConfig.from(TrainerConfig.resolve(java.util.Map.of("workers_model", 8L)));
        assertEquals(8, eight.metrics().commModel(4).workers());
    }
}
