package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Threshold's device codec ({@code sparse.cu}'s counted lists) against the CPU codec: payloads byte for byte (so also
 * their data-dependent sizes) and the mean of two workers' decoded payloads to the bit, over three steps, on lengths
 * 1, 7, 1001, 20,011 and 300,007, with thresholds of 0 (every value, ±0 included), a subnormal, one between two
 * floats (0.1), one a float that large groups of tied magnitudes equal (0.125), one that sends about one value in
 * ten, and one above every finite value (only NaN and infinities): on gradients with ±0, subnormals, NaN and
 * infinities, and on tied magnitudes.
 */
class CudaThresholdCodecTest {
    private static final long SEED = 5;
    private static final int WORKERS = 2;

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaThresholdCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (double threshold : new double[] {0, 1e-45, 0.1, 0.125, 0.016, 1e39}) {
                Map<String, Object> params = Map.of("threshold", threshold);
                for (int length : new int[] {1, 7, 1001, 20_011, 300_007}) {
                    for (boolean ties : new boolean[] {false, true}) {
                        bytes += CodecComparison.compare(gpu, codec,
                                CodecComparison.workers("threshold", params, SEED, WORKERS),
                                CodecComparison.workers("threshold", params, SEED, WORKERS), length, 3,
                                (step, w, n) -> {
                                    Random rng = new Random(n * 31L + step * 7L + w + (ties ? 1000 : 0));
                                    return ties ? CudaSparseCodecTest.tiedGradient(n, rng)
                                            : CudaSparseCodecTest.gradient(n, rng);
                                }, "threshold " + threshold + " length " + length + " ties " + ties);
                    }
                }
            }
            return bytes;
        });
        assertTrue(compared > 500_000, "compared only " + compared + " bytes");
    }
}
