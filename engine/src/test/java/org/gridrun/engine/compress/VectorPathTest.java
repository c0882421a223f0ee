package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.simd.Simd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Vector API kernels against the scalar reference: every payload byte and decoded value the same, on sizes,
 * bucket sizes and layer shapes that leave tails at every level (vector length, four values per draw, chunk, bucket).
 */
class VectorPathTest {
    @AfterEach
    void restore() {
        Vectors.enabled = Simd.enabled();
        Halves.minValues = Halves.MIN_VALUES;
    }

    @Test
    void theTestJvmLoadsTheVectorApi() {
        assertTrue(Simd.moduleLoaded(), "the tests run with --add-modules jdk.incubator.vector (surefire's argLine)");
    }

    @Test
    void levelQuantizersGiveTheScalarBytesOnOddSizes() {
        assumeTrue(Simd.enabled(), Simd.describe());
        float[] g = gradient(70_001);
        int[] lengths = {1, 3, 17, 63, 1001, 4099, 70_001 - 7};
        for (String name : List.of("qsgd", "qinf", "trn", "nuq")) {
            for (long bits : name.equals("trn") ? new long[] {2} : new long[] {1, 2, 3, 4, 7, 8}) {
                for (long bucket : new long[] {5, 333, 8191}) {
                    for (boolean perLayer : new boolean[] {false, true}) {
                        Map<String, Object> params = new HashMap<>();
                        params.put("bucket_size", bucket);
                        params.put("per_layer", perLayer);
                        if (!name.equals("trn")) {
                            params.put("bits", bits);
                        }
                        for (int length : lengths) {
                            String what = name + " " + params + " length " + length;
                            List<Object> scalar = run(name, params, g, length, false);
                            List<Object> vector = run(name, params, g, length, true);
                            for (int i = 0; i < scalar.size(); i += 2) {
                                assertArrayEquals((byte[]) scalar.get(i), (byte[]) vector.get(i), what);
                                assertArrayEquals((float[]) scalar.get(i + 1), (float[]) vector.get(i + 1), what);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void floatCastsGiveTheScalarBytesOnOddSizes() {
        assumeTrue(Simd.enabled(), Simd.describe());
        float[] g = gradient(70_001);
        g[3000] = 70_000f;
        g[3001] = -1e-9f;
        g[3002] = Float.NEGATIVE_INFINITY;
        g[3003] = -0f;
        for (String name : List.of("fp16", "bf16", "fp8")) {
            for (int length : new int[] {1, 3, 17, 63, 1001, 4099, 70_001 - 7}) {
                List<Object> scalar = run(name, Map.of(), g, length, false);
                List<Object> vector = run(name, Map.of(), g, length, true);
                for (int i = 0; i < scalar.size(); i += 2) {
                    assertArrayEquals((byte[]) scalar.get(i), (byte[]) vector.get(i), name + " length " + length);
                }
            }
        }
    }

    @Test
    void twoThreadsOnTheVectorPathGiveOneThreadsBytes() {
        assumeTrue(Simd.enabled(), Simd.describe());
        float[] g = gradient(70_001);
        Map<String, Object> params = Map.of("bucket_size", 333L, "per_layer", true);
        List<Object> one = run("qsgd", params, g, g.length - 5, true);
        Halves.minValues = 64;
        List<Object> two = run("qsgd", params, g, g.length - 5, true);
        for (int i = 0; i < one.size(); i++) {
            Object a = one.get(i);
            if (a instanceof byte[] bytes) {
                assertArrayEquals(bytes, (byte[]) two.get(i));
            } else {
                assertArrayEquals((float[]) a, (float[]) two.get(i));
            }
        }
    }

    @Test
    void smaqGivesTheScalarBytesOnOddSizes() {
        assumeTrue(Simd.enabled(), Simd.describe());
        float[] g = gradient(70_001);
        // escapes of every width within the first 4,099 values (a NaN, further on, makes the statistics NaN)
        g[100] = 1e6f;
        g[101] = -40f;
        g[102] = 7f;
        for (String outliers : List.of("escape", "clamp")) {
            for (int length : new int[] {1, 3, 17, 63, 1001, 4099, 70_001 - 7}) {
                Map<String, Object> params = Map.of("outliers", outliers);
                List<Object> scalar = run("smaq", params, g, length, false);
                List<Object> vector = run("smaq", params, g, length, true);
                for (int i = 0; i < scalar.size(); i += 2) {
                    String what = "smaq " + params + " length " + length;
                    assertArrayEquals((byte[]) scalar.get(i), (byte[]) vector.get(i), what);
                    assertArrayEquals((float[]) scalar.get(i + 1), (float[]) vector.get(i + 1), what);
                }
            }
        }
    }

    @Test
    void signMethodsGiveTheScalarBytesOnOddSizes() {
        assumeTrue(Simd.enabled(), Simd.describe());
        float[] g = gradient(70_001);
        g[40] = -0f;
        g[41] = Float.intBitsToFloat(0xFFC00001);
        g[42] = Float.NEGATIVE_INFINITY;
        g[43] = -Float.MIN_VALUE;
        List<Map<String, Object>> methods = List.of(Map.of("method", "signsgd"), Map.of("method", "efsignsgd"),
                Map.of("method", "signum", "scaled", false), Map.of("method", "onebit", "bucket_size", 333L),
                Map.of("method", "onebit", "bucket_size", 8192L));
        for (Map<String, Object> method : methods) {
            Map<String, Object> params = new HashMap<>(method);
            String name = (String) params.remove("method");
            for (int length : new int[] {1, 31, 32, 33, 1001, 32 * SignBits.CHUNK + 37, 70_001 - 7}) {
                List<Object> scalar = run(name, params, g, length, false);
                List<Object> vector = run(name, params, g, length, true);
                for (int i = 0; i < scalar.size(); i += 2) {
                    String what = method + " length " + length;
                    assertArrayEquals((byte[]) scalar.get(i), (byte[]) vector.get(i), what);
                    assertArrayEquals((float[]) scalar.get(i + 1), (float[]) vector.get(i + 1), what);
                }
            }
        }
    }

    /**
     * Gaussian values with the cases that take other paths: buckets of zeros, of subnormal values (whose ratio
     * overflows), a NaN and an infinity, values at the norm exactly.
     */
    private static float[] gradient(int n) {
        float[] g = TestGradients.gaussian(n, 17);
        for (int i = 1000; i < 1700; i++) {
            g[i] = 0f;
        }
        for (int i = 2000; i < 2400; i++) {
            g[i] = Float.MIN_VALUE * (i % 7 - 3);
        }
        g[5000] = Float.NaN;
        g[9000] = Float.POSITIVE_INFINITY;
        for (int i = 12_000; i < 12_020; i++) {
            g[i] = i % 2 == 0 ? 3f : -3f;
        }
        return g;
    }

    /** Two encodes and decodes of {@code g[3 … 3 + length)} with a layout of three odd tensors; bytes and values. */
    static List<Object> run(String name, Map<String, Object> params, float[] g, int length, boolean vectors) {
        Vectors.enabled = vectors;
        Compressor c = Compressors.create(name, params, 9).copy(1);
        int a = Math.max(1, length / 3 + 5);
        int b = Math.max(0, length - a - 2);
        List<int[]> shapes = new ArrayList<>(List.of(new int[] {a}, new int[] {b}, new int[] {length - a - b}));
        shapes.removeIf(s -> s[0] <= 0);
        c.bind(TensorLayout.of(List.of("w", "b", "c").subList(0, shapes.size()), shapes));
        List<Object> results = new ArrayList<>();
        for (int step = 0; step < 2; step++) {
            Payload p = c.encode(g, 3, length);
            float[] out = new float[length + 2];
            c.decode(p, out, 2);
            results.add(p.copy().bytes());
            results.add(out);
        }
        return results;
    }
}
