package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Natural compression's device codec ({@code cast.cu}) against the CPU codec, through {@link CodecComparison}: payloads
 * byte for byte and the mean of two workers' decoded payloads to the bit, over three steps, on lengths whose 9-bit
 * codes end anywhere in a word, with ±0, subnormals (rounding between 0 and 2^-126), powers of two (mantissa 0, never
 * rounded up), values at and above 2^127 (which stay), infinities and NaN.
 */
class CudaNaturalCodecTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaNaturalCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (int length : new int[] {1, 2, 7, 32, 33, 1001, 20_011}) {
                bytes += CodecComparison.compare(gpu, codec, CodecComparison.workers("natural", Map.of(), 3, 2),
                        CodecComparison.workers("natural", Map.of(), 3, 2), length, 3,
                        (step, w, n) -> gradient(n, new Random(n * 31L + step * 7L + w)), "natural length " + length);
            }
            return bytes;
        });
        assertTrue(compared > 60_000, "compared only " + compared + " bytes");
    }

    private static float[] gradient(int n, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) (rng.nextGaussian() * Math.exp(rng.nextGaussian() * 3));
        }
        CodecComparison.zerosAndSubnormals(g);
        float[] edges = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0x1p127f, -Float.MAX_VALUE,
                0.5f, -4f, Float.MIN_NORMAL, -Float.MIN_NORMAL * 0.75f};
        for (int k = 0; k < edges.length && 2 * k + 1 < n; k++) {
            g[2 * k + 1] = edges[k];
        }
        return g;
    }
}
