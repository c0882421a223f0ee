package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The counted lists' device codec ({@code sparse.cu}: threshold's and DGC's) against the CPU codec, through
 * {@link CodecComparison}: payloads byte for byte (so also their data-dependent sizes) and the mean of two workers'
 * decoded payloads to the bit, over three steps, on gradients with ±0, subnormals, NaN and infinities, and on tied
 * magnitudes (groups of equal magnitudes at the threshold).
 */
class CudaThresholdCodecTest {
    private static final long SEED = 5;
    private static final int WORKERS = 2;

    /**
     * Threshold on lengths 1, 7, 1001, 20,011 and 300,007 (each compaction thread then takes two values), with
     * thresholds of 0 (every value, ±0 included), a subnormal, one between two floats (0.1), one a float that tied
     * magnitudes equal (0.125), one that sends about one value in ten, and one above every finite value (only NaN
     * and infinities).
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void thresholdPayloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaThresholdCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (double threshold : new double[] {0, 1e-45, 0.1, 0.125, 0.016, 1e39}) {
                for (int length : CodecComparison.compactionLengths(target)) {
                    bytes += compare(gpu, codec, "threshold", Map.of("threshold", threshold), length);
                }
            }
            return bytes;
        });
        assertTrue(compared > CodecComparison.enoughCompared(target, 500_000), "compared only " + compared + " bytes");
    }

    /**
     * DGC, whose momentum and accumulator the codec keeps in the worker's slot, so that what they keep (and their
     * masking after each send) decides the later steps, and whose saved state after the steps (the vectors fetched
     * from the slot) must be the host's: on lengths 1, 7, 1001 and 20,011, with ratios from one value to all of them,
     * samples of 1% and of every value (whose largest is then a NaN where the gradient has one), momenta 0.9 and 0.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void dgcPayloadsMeansAndStateAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaThresholdCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (double ratio : new double[] {1e-9, 0.01, 0.3, 1.0}) {
                for (double sampleRatio : new double[] {0.01, 1.0}) {
                    for (double momentum : new double[] {0.9, 0.0}) {
                        for (int length : new int[] {1, 7, 1001, 20_011}) {
                            bytes += compare(gpu, codec, "dgc", Map.of("ratio", ratio, "sample_ratio", sampleRatio,
                                    "dgc_momentum", momentum), length);
                        }
                    }
                }
            }
            return bytes;
        });
        assertTrue(compared > 200_000, "compared only " + compared + " bytes");
    }

    /** Three steps of two workers of {@code method}, on both gradients; returns the payload bytes compared. */
    private static int compare(Gpu gpu, CudaDeviceCodec codec, String method, Map<String, Object> params,
                               int length) {
        int bytes = 0;
        for (boolean ties : new boolean[] {false, true}) {
            bytes += CodecComparison.compare(gpu, codec, CodecComparison.workers(method, params, SEED, WORKERS),
                    CodecComparison.workers(method, params, SEED, WORKERS), length, 3, (step, w, n) -> {
                        Random rng = new Random(n * 31L + step * 7L + w + (ties ? 1000 : 0));
                        return ties ? CudaSparseCodecTest.tiedGradient(n, rng) : CudaSparseCodecTest.gradient(n, rng);
                    }, method + " " + params + " length " + length + " ties " + ties);
        }
        return bytes;
    }
}
