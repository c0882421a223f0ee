package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * 1-bit SGD's device codec ({@code sign.cu}) against the CPU codec, through {@link CodecComparison}: payloads byte for
 * byte, the mean of two workers' decoded payloads to the bit over three steps, and the residual fetched from the slot
 * after them, with buckets of 1, 7, 100 and 8192 values (one side empty, last buckets short), on gradients with ±0
 * (which counts as not below zero), subnormals, and a NaN and an infinity in some steps (their bucket's mean NaN).
 */
class CudaOneBitCodecTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsMeansAndResidualsAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaOneBitCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (long bucket : new long[] {1, 7, 100, 8192}) {
                for (int length : new int[] {1, 7, 1001, 20_011}) {
                    Map<String, Object> params = Map.of("bucket_size", bucket);
                    bytes += CodecComparison.compare(gpu, codec, CodecComparison.workers("onebit", params, 1, 2),
                            CodecComparison.workers("onebit", params, 1, 2), length, 3,
                            (step, w, n) -> gradient(n, step, new Random(n * 31L + step * 7L + w + bucket)),
                            "onebit bucket " + bucket + " length " + length);
                }
            }
            return bytes;
        });
        assertTrue(compared > 30_000, "compared only " + compared + " bytes");
    }

    private static float[] gradient(int n, int step, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) (rng.nextGaussian() * Math.exp(rng.nextGaussian()));
        }
        CodecComparison.zerosAndSubnormals(g);
        if (step == 2 && n > 10) {
            g[n / 4] = Float.NaN;
            g[n - 3] = Float.NEGATIVE_INFINITY;
        }
        return g;
    }
}
