package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.GradientSampler;
import org.gridrun.engine.compress.TensorLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The level quantizers' device codec ({@code quantize.cu}) against the CPU codec: payloads byte for byte, and the
 * mean of the decoded payloads of two workers to the bit, for qsgd, qinf, nuq (exponential levels, searched) and
 * amq (its initial levels) at widths 1 to 8 and trn with and without clipping, on lengths and
 * bucket sizes that leave short last buckets and codes straddling words and bytes, per layer, over two consecutive
 * steps (the second starts later in the random stream), on gradients with a zero stretch, NaN, infinities,
 * subnormals (whose bucket norms are subnormal) and the largest floats.
 */
class CudaLevelCodecTest {
    private static final long SEED = 77;
    private static final int WORKERS = 2;

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAndMeansAreTheCpuCodecs(GpuTarget target) {
        int compared = CodecComparison.onCodec(target, CudaLevelCodec::new, (gpu, codec) -> {
            int bytes = 0;
            for (String method : List.of("qsgd", "qinf", "trn", "trn-clip", "nuq", "amq")) {
                for (long bits : method.startsWith("trn") ? new long[] {2} : new long[] {1, 2, 3, 5, 8}) {
                    for (int length : new int[] {1, 7, 1001, 20_011}) {
                        for (long bucket : new long[] {1, 333, 8192}) {
                            // one bucket a value: up to 1001 (the emulator runs each bucket's block of threads)
                            for (boolean perLayer : new boolean[] {false, true}) {
                                if (bucket > 1 || length <= 1001) {
                                    bytes += compare(gpu, codec, method, bits, length, bucket, perLayer);
                                }
                            }
                        }
                    }
                }
            }
            return bytes;
        });
        assertTrue(compared > 1_000_000, "compared only " + compared + " bytes");
    }

    /** Two steps of two workers of one configuration on both codecs; returns the payload bytes compared. */
    private static int compare(Gpu gpu, CudaDeviceCodec codec, String method, long bits, int length, long bucket,
                               boolean perLayer) {
        Map<String, Object> params = method.startsWith("trn")
                ? Map.of("bucket_size", bucket, "per_layer", perLayer, "clip", method.equals("trn-clip"))
                : Map.of("bits", bits, "bucket_size", bucket, "per_layer", perLayer);
        String name = method.startsWith("trn") ? "trn" : method;
        Compressor[] host = CodecComparison.workers(name, params, SEED, WORKERS);
        Compressor[] device = CodecComparison.workers(name, params, SEED, WORKERS);
        for (int w = 0; w < WORKERS; w++) {
            // AMQ fits its levels before the first step: to sampled gradients (the same draws on both sides), which
            // lets the device encode that step too
            int worker = w;
            GradientSampler sampler = (draw, out) -> {
                float[] g = gradient(out.length, new Random(draw * 131L + worker + bits));
                System.arraycopy(g, 0, out, 0, out.length);
            };
            host[w].bindSampler(sampler);
            device[w].bindSampler(sampler);
        }
        if (perLayer) {
            for (int w = 0; w < WORKERS; w++) {
                host[w].bind(layout(length));
                device[w].bind(layout(length));
            }
        }
        String what = method + " bits " + bits + " length " + length + " bucket " + bucket + " per layer "
                + perLayer;
        return CodecComparison.compare(gpu, codec, host, device, length, 2,
                (step, w, n) -> gradient(n, new Random(n * 31L + step * 7L + w + bits)), what);
    }

    /** Three tensors of about a third of {@code length} each (one when it is shorter than 3). */
    private static TensorLayout layout(int length) {
        if (length < 3) {
            return new TensorLayout(List.of(new TensorLayout.Tensor("w", new int[] {length}, 0)));
        }
        int a = length / 3;
        int b = length / 3 + 1;
        return new TensorLayout(List.of(new TensorLayout.Tensor("a", new int[] {a}, 0),
                new TensorLayout.Tensor("b", new int[] {b}, a),
                new TensorLayout.Tensor("c", new int[] {length - a - b}, a + b)));
    }

    /** Gaussian values with a zero stretch, a subnormal stretch and scattered edge values. */
    private static float[] gradient(int n, Random rng) {
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) rng.nextGaussian() * 0.01f;
        }
        for (int i = n / 2; i < Math.min(n, n / 2 + 400); i++) {
            g[i] = 0f;
        }
        for (int i = n / 4; i < Math.min(n, n / 4 + 50); i++) {
            g[i] = Float.MIN_VALUE * (i % 7);
        }
        float[] edges = {Float.NaN, Float.POSITIVE_INFINITY, -Float.MAX_VALUE, Float.MIN_NORMAL, -0f, 3e38f};
        if (n > 5000) {
            for (int k = 0; k < edges.length; k++) {
                g[(int) ((long) (k + 1) * n / 9)] = edges[k];
            }
        }
        return g;
    }
}
