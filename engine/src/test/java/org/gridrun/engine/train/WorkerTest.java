package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.data.Dataset;
import org.gridrun.engine.model.nn.Models;
import org.gridrun.engine.model.nn.Network;
import org.junit.jupiter.api.Test;

/** Sampled gradients come from a stream of their own: they leave the training batches as they were. */
class WorkerTest {
    private static Dataset data() {
        Random random = new Random(4);
        byte[] pixels = new byte[60 * 8];
        random.nextBytes(pixels);
        int[] labels = random.ints(60, 0, 3).toArray();
        return new Dataset("tiny", pixels, labels, 8, 3, 0.5f, 0.25f);
    }

    private static float[] training(Backend backend, Worker worker, int n) {
        worker.computeGradient(1);
        float[] g = new float[n];
        backend.download(worker.gradient(), g, 0);
        return g;
    }

    @Test
    void samplingLeavesTheTrainingBatchesAndIsDeterminedByTheDraw() {
        try (Backend backend = new CpuBackend(); Network mlp = Models.mlp(backend, 8, List.of(5), 3)) {
            mlp.initialize(1);
            int n = mlp.parameterCount();
            Dataset data = data();
            try (Worker plain = new Worker(0, backend, mlp, data, 4, 9);
                 Worker sampling = new Worker(0, backend, mlp, data, 4, 9)) {
                float[] first = training(backend, plain, n);
                float[] second = training(backend, plain, n);
                assertArrayEquals(first, training(backend, sampling, n));
                float[] draw3 = new float[n];
                float[] draw4 = new float[n];
                sampling.sampleGradient(3, draw3);
                sampling.sampleGradient(4, draw4);
                assertArrayEquals(second, training(backend, sampling, n), "the next training batch is unchanged");
                float[] again = new float[n];
                sampling.sampleGradient(3, again);
                assertArrayEquals(draw3, again, "a draw is its own minibatch, whatever came before");
                assertFalse(Arrays.equals(draw3, draw4));
                assertFalse(Arrays.equals(draw3, second));
            }
        }
    }
}
