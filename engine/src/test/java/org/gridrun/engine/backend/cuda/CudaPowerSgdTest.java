package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.CollectiveCompressor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.train.DevicePowerSgd;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PowerSGD's step on the device ({@code lowrank.cu}, {@link CudaPowerSgd}) against the host's
 * ({@code PowerSgdRounds}) on awkward layouts: one-row and one-column matrices, odd sizes, a rank above a dimension
 * (clipped), ranks orthonormalised by Gram-Schmidt (1, 2) and by Householder (3, 5), a tensor sent raw, several
 * iterations, no residual kept, a start after plain steps, and the alternating variant's half iterations (one a step,
 * and three, so that a step sends P, Q and P or Q, P and Q). Each step's average is compared to the bit, and after
 * the steps every worker's saved state (Q and the residual, fetched from the device) byte for byte.
 */
class CudaPowerSgdTest {
    private static final int WORKERS = 3;
    private static final int STEPS = 5;

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void stepsAreTheHostsToTheBit(GpuTarget target) {
        TensorLayout layout = TensorLayout.of(List.of("row", "odd", "column", "bias", "wide", "cube"),
                List.of(new int[] {1, 9}, new int[] {7, 13}, new int[] {11, 1}, new int[] {5}, new int[] {3, 40},
                        new int[] {6, 2, 5}));
        for (Map<String, Object> params : List.<Map<String, Object>>of(Map.of("rank", 1L), Map.of("rank", 2L),
                Map.of("rank", 3L, "min_compression_rate", 1.0), Map.of("rank", 5L, "min_compression_rate", 1.0,
                        "iters_per_step", 2L), Map.of("rank", 2L, "keep_residual", false, "start_after", 2L),
                Map.of("rank", 1L, "variant", "alternating"), Map.of("rank", 3L, "variant", "alternating",
                        "min_compression_rate", 1.0, "iters_per_step", 3L, "start_after", 1L))) {
            try (Backend backend = target.backend()) {
                compare(backend, layout, params);
            }
        }
    }

    private static void compare(Backend backend, TensorLayout layout, Map<String, Object> params) {
        int n = layout.size();
        Compressor[] host = workers(params, layout);
        Compressor[] device = workers(params, layout);
        DevicePowerSgd step = DevicePowerSgd.of(backend, device, n);
        assertNotNull(step, "cuda runs " + params + " on the device");
        Tensor[] gradients = new Tensor[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            gradients[w] = backend.allocate(1, n);
        }
        Tensor average = backend.allocate(1, n);
        Random random = new Random(params.hashCode());
        for (int s = 0; s < STEPS; s++) {
            float[][] values = new float[WORKERS][n];
            for (int w = 0; w < WORKERS; w++) {
                for (int i = 0; i < n; i++) {
                    values[w][i] = (float) random.nextGaussian() * (i % 7 == 3 ? 1e-3f : 1f);
                }
                values[w][w] = -0f;
                backend.upload(values[w], 0, gradients[w]);
            }
            float[] expected = new float[n];
            ((CollectiveCompressor) host[0]).step(collective(host), values, expected);
            step.step(gradients, average);
            float[] actual = new float[n];
            backend.download(average, actual, 0);
            for (int i = 0; i < n; i++) {
                assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(actual[i]),
                        params + " step " + s + " value " + i + ": " + expected[i] + " against " + actual[i]);
            }
            for (int w = 0; w < WORKERS; w++) {
                assertEquals(((CollectiveCompressor) host[w]).sentBits(), ((CollectiveCompressor) device[w])
                        .sentBits(), params + " step " + s + " bits");
            }
        }
        for (int w = 0; w < WORKERS; w++) {
            assertArrayEquals(CodecComparison.state(host[w]), CodecComparison.state(device[w]),
                    params + " worker " + w + "'s state");
        }
    }

    private static Compressor[] workers(Map<String, Object> params, TensorLayout layout) {
        Map<String, Object> all = new HashMap<>(params);
        Compressor prototype = Compressors.create("powersgd", all, 11);
        List<Compressor> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            Compressor c = prototype.copy(100 + w);
            c.bind(layout);
            workers.add(c);
        }
        return workers.toArray(Compressor[]::new);
    }

    private static CollectiveCompressor[] collective(Compressor[] workers) {
        CollectiveCompressor[] all = new CollectiveCompressor[workers.length];
        for (int w = 0; w < workers.length; w++) {
            all[w] = (CollectiveCompressor) workers[w];
        }
        return all;
    }
}
