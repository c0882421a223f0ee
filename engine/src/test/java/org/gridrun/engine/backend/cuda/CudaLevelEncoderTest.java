package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.DeviceEncodable;
import org.gridrun.engine.compress.DeviceLevelPlan;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.random.CounterRng;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The level quantizers' device encoder ({@code quantize.cu}) against the CPU encoder, byte for byte: qsgd and qinf
 * at every width, trn, on lengths and bucket sizes that leave short last buckets and codes straddling words, per
 * layer, over two consecutive steps (the second starts later in the random stream), on a gradient with a zero
 * bucket, a NaN, infinities, subnormals and a value whose bucket norm is subnormal.
 */
class CudaLevelEncoderTest {
    private static final long SEED = 77;

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void payloadsAreTheCpuEncodersBytes(GpuTarget target) {
        Gpu gpu = target.open();
        int compared = 0;
        try (CudaLevelEncoder encoder = new CudaLevelEncoder(gpu)) {
            for (String method : List.of("qsgd", "qinf", "trn")) {
                for (long bits : method.equals("trn") ? new long[] {2} : new long[] {1, 2, 3, 5, 8}) {
                    for (int length : new int[] {1, 7, 1001, 20_011}) {
                        for (long bucket : new long[] {1, 333, 8192}) {
                            for (boolean perLayer : new boolean[] {false, true}) {
                                compared += compare(gpu, encoder, method, bits, length, bucket, perLayer);
                            }
                        }
                    }
                }
            }
        } finally {
            gpu.close();
        }
        assertTrue(compared > 1_000_000, "compared only " + compared + " bytes");
    }

    /** Two steps of one configuration on both encoders; returns the payload bytes compared. */
    private static int compare(Gpu gpu, CudaLevelEncoder encoder, String method, long bits, int length, long bucket,
                               boolean perLayer) {
        Map<String, Object> params = method.equals("trn")
                ? Map.of("bucket_size", bucket, "per_layer", perLayer)
                : Map.of("bits", bits, "bucket_size", bucket, "per_layer", perLayer);
        Compressor host = Compressors.create(method, params, SEED);
        Compressor device = Compressors.create(method, params, SEED);
        if (perLayer) {
            TensorLayout layout = layout(length);
            host.bind(layout);
            device.bind(layout);
        }
        String what = method + " bits " + bits + " length " + length + " bucket " + bucket + " per layer "
                + perLayer;
        long address = gpu.allocate(4L * length);
        int compared = 0;
        try {
            for (int step = 0; step < 2; step++) {
                float[] g = gradient(length, new Random(length * 31L + step + bits));
                gpu.upload(g, 0, address, length);
                Payload expected = host.encode(g, 0, length);
                DeviceLevelPlan plan = ((DeviceEncodable) device).planDeviceEncode(length).orElseThrow();
                Payload actual = plan.payload();
                encoder.encode(address, plan.bits(), plan.levels(), plan.largestNorm(), plan.bucketStarts(),
                        CounterRng.keyOf(plan.seed(), plan.stream()), plan.firstDraw(), actual.bytes());
                assertEquals(expected.bits(), actual.bits(), what);
                assertEquals(expected.sideBits(), actual.sideBits(), what);
                assertArrayEquals(expected.bytes(), actual.bytes(), what + " step " + step);
                compared += actual.bytes().length;
            }
        } finally {
            gpu.free(address);
        }
        return compared;
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
