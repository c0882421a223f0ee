package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.DeviceEncodable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * signSGD's device codec ({@code sign.cu}) against the CPU codec: payloads byte for byte, and the mean of the decoded
 * payloads of two workers to the bit, scaled and not, on odd lengths (a last word of sign bits part full) over two
 * steps, on gradients with ±0, a subnormal stretch and, worker by worker and step by step, a NaN (a NaN scale), an
 * infinity (an infinite scale) and large values whose sum the scale's chain of double additions rounds.
 */
class CudaSignCodecTest {
    private static final long SEED = 5;
    private static final int WORKERS = 2;

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaSignCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (boolean scaled : new boolean[] {true, false}) {
                Map<String, Object> params = Map.of("scaled", scaled);
                for (int length : new int[] {1, 7, 31, 32, 33, 1001, 20_011}) {
                    bytes += CodecComparison.compare(gpu, codec,
                            CodecComparison.workers("signsgd", params, SEED, WORKERS),
                            CodecComparison.workers("signsgd", params, SEED, WORKERS), length, 3,
                            (step, w, n) -> gradient(n, step * WORKERS + w, new Random(n * 17L + step * 3L + w)),
                            "signsgd scaled " + scaled + " length " + length);
                }
            }
            return bytes;
        });
        assertTrue(compared > 10_000, "compared only " + compared + " bytes");
    }

    /**
     * Error feedback around efsignsgd or signum, which keep a memory of their own, stays on the host: they plan
     * nothing. efsignsgd, signum and signsgd with error feedback plan (their memory kept by the trainer).
     */
    @Test
    void methodsWithTwoMemoriesEncodeOnTheHost() {
        for (Compressor c : List.of(Compressors.create("signum", Map.of("error_feedback", true), 1),
                Compressors.create("efsignsgd", Map.of("error_feedback", true), 1))) {
            assertTrue(((DeviceEncodable) c).planDeviceEncode(100).isEmpty(), c.toString());
        }
        for (Compressor c : List.of(Compressors.create("efsignsgd", Map.of(), 1),
                Compressors.create("signum", Map.of(), 1),
                Compressors.create("signsgd", Map.of("error_feedback", true), 1))) {
            assertTrue(((DeviceEncodable) c).planDeviceEncode(100).isPresent(), c.toString());
        }
    }

    /**
     * Gaussian values of mixed magnitude (the scale's sum rounds) with ±0 and subnormals; case 1 holds a NaN, case 2
     * an infinity, case 3 only values of one sign.
     */
    private static float[] gradient(int n, int kind, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) rng.nextGaussian() * Math.scalb(1f, rng.nextInt(60) - 30);
        }
        CodecComparison.zerosAndSubnormals(g);
        switch (kind) {
            case 1 -> g[n - 1] = Float.NaN;
            case 2 -> g[n / 4] = -Float.POSITIVE_INFINITY;
            case 3 -> {
                for (int i = 0; i < n; i++) {
                    g[i] = Math.abs(g[i]);
                }
            }
            default -> {
            }
        }
        return g;
    }
}
