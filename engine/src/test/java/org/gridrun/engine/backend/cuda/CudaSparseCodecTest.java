package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sparsifiers' device codec ({@code sparse.cu}) against the CPU codec: payloads byte for byte, and the mean of
 * the decoded payloads of two workers to the bit, for topk (the device's radix select and compaction against the
 * host's selector) and randomk (positions drawn from the shared stream), with k = 1, k = n and ratios between, on
 * lengths 1, 7, 1001, 20,011 and 300,007, over two consecutive steps, on gradients whose magnitudes tie in large
 * groups (so the k-th largest is shared and the lowest positions must win), with ±0, subnormals, NaN and
 * infinities.
 */
class CudaSparseCodecTest {
    private static final long SEED = 91;
    private static final int WORKERS = 2;

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaSparseCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (String method : List.of("topk", "randomk")) {
                for (double ratio : new double[] {1e-9, 0.003, 0.1, 0.5, 1.0}) {
                    for (int length : CodecComparison.compactionLengths(target)) {
                        for (boolean ties : new boolean[] {false, true}) {
                            bytes += compare(gpu, codec, method, ratio, length, ties);
                        }
                    }
                }
            }
            return bytes;
        });
        assertTrue(compared > CodecComparison.enoughCompared(target, 500_000), "compared only " + compared + " bytes");
    }

    /** Two steps of two workers of one configuration on both codecs; returns the payload bytes compared. */
    private static int compare(Gpu gpu, CudaDeviceCodec codec, String method, double ratio, int length,
                               boolean ties) {
        Compressor[] host = new Compressor[WORKERS];
        Compressor[] device = new Compressor[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            host[w] = Compressors.create(method, Map.of("ratio", ratio), SEED).copy(w);
            device[w] = Compressors.create(method, Map.of("ratio", ratio), SEED).copy(w);
        }
        String what = method + " ratio " + ratio + " length " + length + " ties " + ties;
        return CodecComparison.compare(gpu, codec, host, device, length, 2, (step, w, n) -> {
            Random rng = new Random(n * 31L + step * 7L + w + (ties ? 1000 : 0));
            return ties ? tiedGradient(n, rng) : gradient(n, rng);
        }, what);
    }

    /** Gaussian values with a ±0 stretch, a subnormal stretch and scattered edge values. */
    static float[] gradient(int n, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) rng.nextGaussian() * 0.01f;
        }
        for (int i = n / 2; i < Math.min(n, n / 2 + 400); i++) {
            g[i] = i % 2 == 0 ? 0f : -0f;
        }
        for (int i = n / 4; i < Math.min(n, n / 4 + 50); i++) {
            g[i] = Float.MIN_VALUE * (i % 7) * (i % 2 == 0 ? 1 : -1);
        }
        float[] edges = {Float.NaN, Float.POSITIVE_INFINITY, -Float.MAX_VALUE, Float.MIN_NORMAL, -0f, 3e38f,
                Float.intBitsToFloat(0xFFC12345), Float.NEGATIVE_INFINITY};
        if (n > 5000) {
            for (int k = 0; k < edges.length; k++) {
                g[(int) ((long) (k + 1) * n / 11)] = edges[k];
            }
        }
        return g;
    }

    /** Magnitudes from a handful of values (eighths, ±0, one subnormal), signs at random: every rank is shared. */
    static float[] tiedGradient(int n, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            int level = rng.nextInt(6);
            float m = level == 5 ? Float.MIN_VALUE * 3 : level * 0.125f;
            g[i] = rng.nextBoolean() ? m : -m;
        }
        return g;
    }
}
