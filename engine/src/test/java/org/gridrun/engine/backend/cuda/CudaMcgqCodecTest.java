package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * MCGQ's device codec ({@code mcgq.cu}) against the CPU codec, through {@link CodecComparison}: payloads byte for byte
 * (so also their sizes) and the mean of two workers' decoded payloads to the bit, over three steps, with systematic and
 * independent points, from one draw to as many as values, on lengths 1 to 20,011 (three chunks of the running sum),
 * on gradients with heavy tails, ±0 and subnormals, all zeros (nothing drawn) and a NaN (a NaN norm).
 */
class CudaMcgqCodecTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaMcgqCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (String sampling : new String[] {"systematic", "independent"}) {
                for (Map<String, Object> draws : new Map[] {Map.of("ratio", 0.01), Map.of("ratio", 1.0),
                        Map.of("samples", 1L), Map.of("samples", 300L)}) {
                    Map<String, Object> params = new java.util.HashMap<>(draws);
                    params.put("sampling", sampling);
                    for (int length : new int[] {1, 7, 1001, 20_011}) {
                        for (int kind = 0; kind < 3; kind++) {
                            int k = kind;
                            bytes += CodecComparison.compare(gpu, codec, CodecComparison.workers("mcgq", params, 8, 2),
                                    CodecComparison.workers("mcgq", params, 8, 2), length, 3,
                                    (step, w, n) -> gradient(n, k, step, new Random(n * 31L + step * 7L + w + 100L * k)),
                                    "mcgq " + params + " length " + length + " kind " + k);
                        }
                    }
                }
            }
            return bytes;
        });
        assertTrue(compared > 20_000, "compared only " + compared + " bytes");
    }

    private static float[] gradient(int n, int kind, int step, Random rng) {
        float[] g = new float[n];
        if (kind == 1) {
            Arrays.fill(g, step == 1 ? -0f : 0f);
            return g;
        }
        for (int i = 0; i < n; i++) {
            g[i] = (float) (rng.nextGaussian() * Math.exp(rng.nextGaussian() * 2));
        }
        CodecComparison.zerosAndSubnormals(g);
        if (kind == 2) {
            g[n / 2] = Float.NaN;
        }
        return g;
    }
}
