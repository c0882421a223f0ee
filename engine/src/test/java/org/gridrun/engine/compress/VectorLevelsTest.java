package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.gridrun.engine.simd.Simd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link VectorLevels}, nuq's levels {@code ±2^-j} found from exponent bits, against {@link LevelSearch}: every code
 * the same, on values at the levels exactly, one ulp either side, zeros of both signs, subnormals, past ±1, with the
 * extreme uniforms; and nuq's payloads with and without vectors, byte for byte, on buckets built to put values there.
 */
class VectorLevelsTest {
    @AfterEach
    void restore() {
        Vectors.enabled = Simd.enabled();
    }

    @Test
    void recognisesOnlyTheBinaryExponentialLevels() {
        for (int bits = 1; bits <= 8; bits++) {
            assertTrue(VectorLevels.binaryExponential(Nuq.exponentialLevels(bits, 0.5)), "bits " + bits);
            // one bit's levels are ±1 whatever mul is
            assertEquals(bits == 1, VectorLevels.binaryExponential(Nuq.exponentialLevels(bits, 0.6)), "bits " + bits);
        }
        assertFalse(VectorLevels.binaryExponential(LevelQuantizer.uniformLevels(4)));
        assertFalse(VectorLevels.binaryExponential(new double[] {-1, -0.5, 0.25, 1}));
        assertFalse(VectorLevels.binaryExponential(new double[] {-1, -0.5, 0, 0.5, 1}));
    }

    @Test
    void everyCodeIsTheSearchsOnAwkwardValues() {
        assumeTrue(Simd.enabled(), Simd.describe());
        float[] awkward = awkwardValues();
        int[] uniforms = {0, 1, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF};
        for (int bits = 1; bits <= 8; bits++) {
            int jmax = (1 << (bits - 1)) - 1;
            LevelSearch search = new LevelSearch(Nuq.exponentialLevels(bits, 0.5));
            for (double inverse : new double[] {1.0, 0.5, 2.0, 1.0 / 3, 1.0 / 0.7f, 0x1.0p100}) {
                for (int u : uniforms) {
                    assertSameCodes(search, awkward, u, inverse, jmax, "bits " + bits + " inverse " + inverse);
                }
            }
            SplittableRandom random = new SplittableRandom(bits);
            float[] gaussian = TestGradients.gaussian(4099, bits);
            for (double inverse : new double[] {1.0 / 64, 1.0 / 3}) {
                assertSameCodes(search, gaussian, random.nextInt(1 << 16), inverse, jmax, "gaussian bits " + bits);
            }
        }
    }

    /** The codes of {@code g·inverse} with uniforms from {@code u} on, by the kernel (and its tail) and the search. */
    private static void assertSameCodes(LevelSearch search, float[] g, int u, double inverse, int jmax, String what) {
        for (int shift : new int[] {0, 1, 5}) {
            int n = g.length - shift;
            int[] uniform = new int[n];
            for (int j = 0; j < n; j++) {
                uniform[j] = (u + 40503 * j) & 0xFFFF;
            }
            int[] expected = new int[n];
            for (int j = 0; j < n; j++) {
                expected[j] = search.index(g[shift + j] * inverse, uniform[j]);
            }
            // a buffer just long enough, and one with room for whole vectors of ints
            for (int room : new int[] {0, 64}) {
                int[] codes = new int[n + room];
                int done = VectorLevels.binaryCodes(g, shift, n, uniform, codes, new double[n], inverse, jmax);
                for (int j = done; j < n; j++) {
                    codes[j] = search.index(g[shift + j] * inverse, uniform[j]);
                }
                int[] got = new int[n];
                System.arraycopy(codes, 0, got, 0, n);
                assertArrayEquals(expected, got, what + " u " + u + " shift " + shift + " room " + room);
            }
        }
    }

    /** Values at, and one ulp either side of, every ±2^-j, and the ends: zeros, subnormals, past ±1, the largest. */
    private static float[] awkwardValues() {
        List<Float> values = new ArrayList<>();
        for (int j = -2; j <= 140; j++) {
            float power = Math.scalb(1f, -j);
            for (float v : new float[] {power, Math.nextUp(power), Math.nextDown(power), 1.5f * power}) {
                values.add(v);
                values.add(-v);
            }
        }
        for (float v : new float[] {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL,
                -Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 1f / 3, -1f / 3, 0.7f, -0.7f}) {
            values.add(v);
        }
        float[] g = new float[values.size()];
        for (int i = 0; i < g.length; i++) {
            g[i] = values.get(i);
        }
        return g;
    }

    @Test
    void nuqPayloadsAreTheScalarBytesAtLevelBoundaries() {
        assumeTrue(Simd.enabled(), Simd.describe());
        float[] g = boundaryGradient();
        for (long bits = 1; bits <= 8; bits++) {
            for (long bucket : new long[] {1, 4, 16, 37, 2048, 8192}) {
                for (int length : new int[] {1, 15, 16, 17, 4099, g.length - 3}) {
                    Map<String, Object> params = new HashMap<>();
                    params.put("bits", bits);
                    params.put("bucket_size", bucket);
                    assertSameRuns(params, g, length, params + " length " + length);
                }
            }
        }
    }

    @Test
    void nuqWithOtherLevelsStillSearches() {
        assumeTrue(Simd.enabled(), Simd.describe());
        float[] g = boundaryGradient();
        assertSameRuns(Map.of("bits", 4L, "bucket_size", 16L, "mul", 0.6), g, g.length - 3, "mul 0.6");
    }

    /** Nuq's payloads and decoded values, two steps of them ({@link VectorPathTest#run}), with and without vectors. */
    private static void assertSameRuns(Map<String, Object> params, float[] g, int length, String what) {
        List<Object> scalar = VectorPathTest.run("nuq", params, g, length, false);
        List<Object> vector = VectorPathTest.run("nuq", params, g, length, true);
        assertEquals(scalar.size(), vector.size(), what);
        for (int i = 0; i < scalar.size(); i += 2) {
            assertArrayEquals((byte[]) scalar.get(i), (byte[]) vector.get(i), what);
            assertArrayEquals((float[]) scalar.get(i + 1), (float[]) vector.get(i + 1), what);
        }
    }

    /**
     * Buckets (of 4 and of 16) whose norm is a power of two, so that values land on levels exactly: four ±1/2 (norm
     * 1), sixteen ±1/4 (norm 1), one ±1 and zeros; the same one ulp off; then zeros, subnormals and Gaussian values.
     */
    private static float[] boundaryGradient() {
        SplittableRandom random = new SplittableRandom(5);
        float[] g = TestGradients.gaussian(20_000, 11);
        // VectorPathTest.run encodes from value 3 on: the buckets start there
        int i = 3;
        for (int b = 0; b < 64; b++, i += 16) {
            for (int k = 0; k < 16; k++) {
                float sign = random.nextBoolean() ? 1f : -1f;
                float v = switch (b % 4) {
                    case 0 -> k < 4 ? 0.5f : 0f;
                    case 1 -> 0.25f;
                    case 2 -> k == 0 ? 1f : 0f;
                    default -> k < 4 ? Math.nextUp(0.5f) : 0f;
                };
                g[i + k] = sign * v * Math.scalb(1f, b % 9 - 4);
            }
        }
        for (int k = 0; k < 64; k++, i++) {
            g[i] = k % 3 == 0 ? 0f : Float.MIN_VALUE * (k % 5 - 2);
        }
        for (int k = 0; k < 64; k++, i++) {
            g[i] = k % 2 == 0 ? -0f : 0f;
        }
        g[i++] = Float.MAX_VALUE;
        g[i++] = -Float.MAX_VALUE;
        return g;
    }
}
