package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.compress.levels.Mixture;
import org.gridrun.engine.compress.levels.TruncatedNormal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seed's quantizer options beyond bits and bucket size: {@code ignore_small_buckets}, {@code symmetric},
 * {@code truncated_interval}, {@code alqg_lr} and {@code number_of_samples}; each test fails if its option is
 * ignored.
 */
class QuantizerOptionsTest {
    private static AdaptiveQuantizer adaptive(String method, Map<String, Object> extra) {
        Map<String, Object> params = new HashMap<>(Map.of("bits", 3L, "bucket_size", 64L, "osnap_iter", "1"));
        params.putAll(extra);
        if (!method.endsWith("_nb")) {
            params.remove("dist_num");
        }
        return (AdaptiveQuantizer) Compressors.create(method, params, 11).copy(0);
    }

    /** Mostly small values with a positive shift and a few large ones: fitted levels are far from uniform. */
    private static float[] skewed(int n, long seed) {
        float[] g = TestGradients.gaussian(n, seed);
        for (int i = 0; i < n; i++) {
            g[i] += 0.8f;
        }
        for (int i = 0; i < n; i += 17) {
            g[i] *= 12;
        }
        return g;
    }

    @Test
    void smallBucketsAreSentAsFloat32AndTheOthersQuantized() {
        // 10 values, buckets of 4: [0,4) [4,8) quantized, the short [8,10) raw.
        float[] g = TestGradients.gaussian(10, 5);
        Compressor q = Compressors.create("qsgd", Map.of("bits", 2L, "bucket_size", 4L, "ignore_small_buckets", true),
                1).copy(0);
        Payload p = q.encode(g, 0, 10);
        assertEquals(32 * (2 + 2) + 2 * 8, p.bits(), "two norms, two raw floats, eight 2-bit indices");
        assertEquals(g[8], LittleEndian.getFloat(p.bytes(), 8));
        assertEquals(g[9], LittleEndian.getFloat(p.bytes(), 12));
        float[] out = new float[10];
        q.decode(p, out, 0);
        assertEquals(g[8], out[8]);
        assertEquals(g[9], out[9]);
        assertTrue(out[0] != g[0] || out[1] != g[1], "the full buckets are still quantized");
        Compressor plain = Compressors.create("qsgd", Map.of("bits", 2L, "bucket_size", 4L), 1).copy(0);
        assertEquals(32 * 3 + 2 * 10, plain.encode(g, 0, 10).bits(), "without the option every bucket is quantized");
    }

    @Test
    void perLayerSmallBucketsAreEveryTensorsShortTail() {
        // Tensors of 3 and 5, buckets of 4: [0,3) raw, [3,7) quantized, [7,8) raw.
        float[] g = TestGradients.gaussian(8, 6);
        Compressor q = Compressors.create("qinf", Map.of("bits", 2L, "bucket_size", 4L, "per_layer", true,
                "ignore_small_buckets", true), 1).copy(0);
        q.bind(TensorLayout.of(List.of("w", "b"), List.of(new int[] {3}, new int[] {5})));
        Payload p = q.encode(g, 0, 8);
        assertEquals(32 * (3 + 1 + 1) + 2 * 4, p.bits());
        float max = 0;
        for (int i = 3; i < 7; i++) {
            max = Math.max(max, Math.abs(g[i]));
        }
        assertEquals(max, LittleEndian.getFloat(p.bytes(), 12), "the norm follows the first tensor's raw values");
        float[] out = new float[8];
        q.decode(p, out, 0);
        assertArrayEquals(new float[] {g[0], g[1], g[2], g[7]}, new float[] {out[0], out[1], out[2], out[7]});
        LevelOracle.assertDeterministic(q, g);
    }

    @Test
    void smallBucketsStayOutOfTheFittedStatistics() {
        // One full bucket of 64 and a tail of 6 with another shape: the mixture has two parts unless the tail is left
        // out, when one bucket remains.
        float[] g = new float[70];
        System.arraycopy(TestGradients.gaussian(64, 2), 0, g, 0, 64);
        for (int i = 64; i < 70; i++) {
            g[i] = i % 2 == 0 ? 3f : -1f;
        }
        AdaptiveQuantizer with = adaptive("alq_nb", Map.of("dist_num", 10L));
        with.encode(g, 0, 70);
        assertInstanceOf(Mixture.class, with.lastDensity());
        AdaptiveQuantizer without = adaptive("alq_nb", Map.of("dist_num", 10L, "ignore_small_buckets", true));
        without.encode(g, 0, 70);
        assertInstanceOf(TruncatedNormal.class, without.lastDensity());
    }

    @Test
    void symmetricLevelsMirrorAroundZero() {
        float[] g = skewed(1024, 3);
        for (String method : List.of("alq", "alq_nb")) {
            AdaptiveQuantizer free = adaptive(method, Map.of("dist_num", 4L));
            free.encode(g, 0, g.length);
            AdaptiveQuantizer symmetric = adaptive(method, Map.of("dist_num", 4L, "symmetric", true));
            symmetric.encode(g, 0, g.length);
            double[] l = symmetric.levels();
            assertEquals(8, l.length);
            for (int j = 0; j < l.length; j++) {
                assertEquals(-l[l.length - 1 - j], l[j], 1e-12, method + " level " + j);
            }
            assertTrue(l[3] < 0 && l[4] > 0, method + ": no zero level " + Arrays.toString(l));
            double[] f = free.levels();
            assertTrue(Math.abs(f[3] + f[4]) > 1e-3, method + ": a skewed gradient gives asymmetric levels without "
                    + "the option " + Arrays.toString(f));
            assertEquals(true, symmetric.config().get("symmetric"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "alqg", "alqg_nb", "amq", "amq_nb"})
    void aTruncatedIntervalNarrowsTheFittedDensity(String method) {
        float[] g = skewed(1024, 4);
        AdaptiveQuantizer wide = adaptive(method, Map.of("dist_num", 4L));
        wide.encode(g, 0, g.length);
        AdaptiveQuantizer narrow = adaptive(method, Map.of("dist_num", 4L, "truncated_interval", 0.25));
        narrow.encode(g, 0, g.length);
        assertEquals(1.0, wide.lastDensity().upper());
        assertEquals(0.25, narrow.lastDensity().upper());
        assertEquals(-0.25, narrow.lastDensity().lower());
        assertFalse(Arrays.equals(wide.levels(), narrow.levels()), method + ": levels follow the interval");
        double[] l = narrow.levels();
        assertEquals(-1.0, l[0]);
        assertEquals(1.0, l[l.length - 1], "levels still span [-1, 1], so rounding stays unbiased");
    }

    @Test
    void alqgsLearningRateIsAParameter() {
        float[] g = skewed(1024, 5);
        AdaptiveQuantizer usual = adaptive("alqg", Map.of());
        usual.encode(g, 0, g.length);
        AdaptiveQuantizer slow = adaptive("alqg", Map.of("alqg_lr", 1e-6, "cd_epochs", 2L));
        slow.encode(g, 0, g.length);
        assertEquals(0.1, usual.config().get("alqg_lr"));
        assertEquals(1e-6, slow.config().get("alqg_lr"));
        assertFalse(Arrays.equals(usual.levels(), slow.levels()), Arrays.toString(usual.levels()) + " vs "
                + Arrays.toString(slow.levels()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "alqg_nb", "amq"})
    void aBoundSamplerFeedsTheFitInsteadOfTheEncodedGradient(String method) {
        float[] g = skewed(512, 6);
        AdaptiveQuantizer alone = adaptive(method, Map.of("dist_num", 4L, "osnap_iter", "2"));
        alone.encode(g, 0, g.length);

        List<Long> draws = new ArrayList<>();
        AdaptiveQuantizer sampled = adaptive(method, Map.of("dist_num", 4L, "osnap_iter", "2",
                "number_of_samples", 3L));
        sampled.bindSampler((draw, out) -> {
            draws.add(draw);
            float[] gaussian = TestGradients.gaussian(out.length, 100 + draw);
            System.arraycopy(gaussian, 0, out, 0, out.length);
        });
        sampled.encode(g, 0, g.length);
        assertEquals(List.of(0L, 1L, 2L), draws, "number_of_samples draws at step 1, which always fits");
        assertFalse(Arrays.equals(alone.levels(), sampled.levels()), method + ": the samples decide the levels");
        double[] fitted = sampled.levels();
        sampled.encode(g, 0, g.length);
        assertEquals(3, draws.size(), "no draws at step 2, after 1 step of a period of 2");
        assertArrayEquals(fitted, sampled.levels());
        sampled.encode(g, 0, g.length);
        assertEquals(List.of(0L, 1L, 2L, 6L, 7L, 8L), draws, "draws at step 3, after 2 steps: (t - 1)·3 onwards");

        AdaptiveQuantizer same = adaptive(method, Map.of("dist_num", 4L, "osnap_iter", "2", "number_of_samples", 3L));
        same.bindSampler((draw, out) -> System.arraycopy(TestGradients.gaussian(out.length, 100 + draw), 0, out, 0,
                out.length));
        float[] other = skewed(512, 99);
        same.encode(other, 0, other.length);
        assertArrayEquals(fitted, same.levels(), "the encoded gradient plays no part once sampled");
    }

    @Test
    void errorFeedbackPassesTheSamplerOn() {
        Compressor wrapped = Compressors.create("alq", Map.of("bits", 3L, "bucket_size", 64L, "osnap_iter", "1",
                "error_feedback", true), 1).copy(0);
        List<Long> draws = new ArrayList<>();
        wrapped.bindSampler((draw, out) -> {
            draws.add(draw);
            System.arraycopy(TestGradients.gaussian(out.length, draw), 0, out, 0, out.length);
        });
        wrapped.encode(skewed(128, 1), 0, 128);
        assertEquals(10, draws.size(), "number_of_samples defaults to 10");
    }
}
