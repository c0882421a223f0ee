package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Full precision's device codec ({@link CudaRawCodec}) against {@code none} on the CPU: payloads byte for byte (the
 * floats' little-endian bytes, NaN payloads and signed zeros kept) and the mean of three workers to the bit, on
 * lengths 1 to 20,011 over two steps.
 */
class CudaRawCodecTest {
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaRawCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (int length : new int[] {1, 7, 1001, 20_011}) {
                bytes += CodecComparison.compare(gpu, codec, CodecComparison.workers("none", Map.of(), 3, 3),
                        CodecComparison.workers("none", Map.of(), 3, 3), length, 2,
                        (step, w, n) -> gradient(n, new Random(n * 13L + step * 5L + w)), "none length " + length);
            }
            return bytes;
        });
        assertTrue(compared > 100_000, "compared only " + compared + " bytes");
    }

    /** Values of every magnitude with ±0, subnormals, ±∞ and a NaN whose payload bits are not the canonical ones. */
    private static float[] gradient(int n, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) rng.nextGaussian() * Math.scalb(1f, rng.nextInt(200) - 100);
        }
        float[] edges = {-0f, 0f, Float.MIN_VALUE, -Float.MIN_NORMAL / 3, Float.POSITIVE_INFINITY,
                Float.intBitsToFloat(0x7FC00123), Float.MAX_VALUE};
        for (int i = 0; i < edges.length && i < n; i++) {
            g[(i * 7919) % n] = edges[i];
        }
        return g;
    }
}
