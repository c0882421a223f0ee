package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.DeviceEncodable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SmaQ's device codec ({@code smaq.cu}) against the CPU codec: payloads byte for byte (so also their data-dependent
 * sizes) and the mean of two workers' decoded payloads to the bit, with escapes and with the paper's clamp, on lengths
 * of 1 to 20 011 values over two steps, on gradients with a heavy tail (escapes of several widths), ±0, subnormals, a
 * NaN, an infinity, constant values (σ zero or a rounding error), huge values, subnormals only (σ's inverse
 * infinite) and ±2^62 that cancel while small values are lost in them (μ then depends on the order of the sums).
 */
class CudaSmaqCodecTest {
    private static final long SEED = 9;
    private static final int WORKERS = 2;
    private static final int CASES = 7;

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaSmaqCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (String outliers : new String[] {"escape", "clamp"}) {
                Map<String, Object> params = Map.of("outliers", outliers);
                for (int kind = 0; kind < CASES; kind++) {
                    int k = kind;
                    for (int length : new int[] {1, 7, 1001, 20_011}) {
                        bytes += CodecComparison.compare(gpu, codec,
                                CodecComparison.workers("smaq", params, SEED, WORKERS),
                                CodecComparison.workers("smaq", params, SEED, WORKERS), length, 2,
                                (step, w, n) -> gradient(n, k, w, new Random(n * 31L + step * 7L + w + 101L * k)),
                                "smaq " + outliers + " case " + k + " length " + length);
                    }
                }
            }
            return bytes;
        });
        assertTrue(compared > 50_000, "compared only " + compared + " bytes");
    }

    /**
     * Past 1024 tiles of 256 values each thread takes a chunk of several values (its records' offsets one after the
     * other); the moments' halves are then long chains too.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void aLongGradientGivesEachThreadSeveralValues(GpuTarget target) {
        int length = 300_007;
        int compared = CodecComparison.onCodec(target, CudaSmaqCodec::new, (gpu, codec) ->
                CodecComparison.compare(gpu, codec, CodecComparison.workers("smaq", Map.of(), SEED, WORKERS),
                        CodecComparison.workers("smaq", Map.of(), SEED, WORKERS), length, 1,
                        (step, w, n) -> gradient(n, 0, w, new Random(n + w)), "smaq length " + length));
        assertTrue(compared > 2 * 6 * length / 8, "compared only " + compared + " bytes");
    }

    /** Sampled statistics draw their sample before the uniforms, one draw at a time: that configuration stays home. */
    @Test
    void sampledStatisticsEncodeOnTheHost() {
        assertTrue(((DeviceEncodable) Compressors.create("smaq", Map.of("num_samples", 100L), 1))
                .planDeviceEncode(1000).isEmpty());
        assertTrue(((DeviceEncodable) Compressors.create("smaq", Map.of(), 1)).planDeviceEncode(1000).isPresent());
    }

    /**
     * Case 0: Gaussian values with a heavy tail (some escape, by up to about 10^4 deviations), a stretch of ±0 and one
     * of subnormals; 1: the same with a NaN; 2: with an infinity; 3: constant values (0.1 for worker 0, whose σ is a
     * rounding error, 0 for worker 1); 4: huge values around 10^30 with one near the float's largest; 5: subnormals
     * only; 6: ±2^62 at every fourth value, alternating, with small values between them, which the host's chains of
     * double additions absorb or keep by their order.
     */
    private static float[] gradient(int n, int kind, int worker, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            float heavy = rng.nextInt(50) == 0 ? (float) Math.pow(10, rng.nextInt(5)) : 1f;
            g[i] = (float) rng.nextGaussian() * heavy * 0.01f + 0.003f;
        }
        CodecComparison.zerosAndSubnormals(g);
        switch (kind) {
            case 1 -> g[n - 1] = Float.NaN;
            case 2 -> g[n / 4] = -Float.POSITIVE_INFINITY;
            case 3 -> java.util.Arrays.fill(g, worker == 0 ? 0.1f : 0f);
            case 4 -> {
                for (int i = 0; i < n; i++) {
                    g[i] *= 1e32f;
                }
                g[n / 5] = -3e38f;
            }
            case 5 -> {
                for (int i = 0; i < n; i++) {
                    g[i] = Float.MIN_VALUE * (rng.nextInt(2001) - 1000);
                }
            }
            case 6 -> {
                for (int i = 0; i < n; i++) {
                    g[i] = i % 8 == 0 ? 0x1p62f : i % 8 == 4 ? -0x1p62f : 0.5f + rng.nextFloat();
                }
            }
            default -> {
            }
        }
        return g;
    }
}
