package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.compress.levels.Density;
import org.gridrun.engine.compress.levels.VarianceProxy;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AdaptiveQuantizerTest {
    private static AdaptiveQuantizer create(String method, int bits, String osnap) {
        Map<String, Object> params = new HashMap<>();
        params.put("bits", (long) bits);
        params.put("bucket_size", 64L);
        params.put("osnap_iter", osnap);
        if (method.endsWith("_nb")) {
            params.put("dist_num", 4L);
        }
        return (AdaptiveQuantizer) Compressors.create(method, params, 11);
    }

    /** A heavy-tailed gradient: most values small, a few large, so fitted levels differ from the initial ones. */
    private static float[] gradient(int n, long seed) {
        float[] g = TestGradients.gaussian(n, seed);
        for (int i = 0; i < n; i += 17) {
            g[i] *= 12;
        }
        return g;
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "alqg", "alqg_nb", "amq", "amq_nb"})
    void theFirstRefitLowersTheVarianceProxy(String method) {
        AdaptiveQuantizer q = create(method, 3, "1");
        double[] initial = q.levels();
        q.encode(gradient(1024, 3), 0, 1024);
        Density f = q.lastDensity();
        assertNotNull(f, "refitted at step 1");
        double before = VarianceProxy.value(f, initial);
        double after = VarianceProxy.value(f, q.levels());
        System.out.printf("%s proxy before %.6g after %.6g%n", method, before, after);
        assertTrue(after < before, method + ": proxy " + before + " -> " + after);
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "amq", "amq_nb"})
    void theAuthorsFitIsAnOptionThatReportsAHigherProxy(String method) {
        Map<String, Object> params = new HashMap<>(Map.of("bits", 3L, "bucket_size", 8192L, "osnap_iter", "1"));
        float[] g = gradient(20_000, 5);
        double[] proxy = new double[2];
        for (int k = 0; k < 2; k++) {
            params.put("level_fit", k == 0 ? "exact" : "authors");
            Compressor q = Compressors.create(method, params, 11);
            assertEquals(params.get("level_fit"), q.config().get("level_fit"));
            q.encode(g, 0, g.length);
            proxy[k] = q.diagnostics().get("nb_error");
        }
        assertTrue(proxy[0] < proxy[1], method + ": exact " + proxy[0] + ", authors " + proxy[1]);
        assertEquals("level_fit must be one of [exact, authors], found 'paper'", assertThrows(ConfigException.class,
                () -> Compressors.create(method, Map.of("level_fit", "paper"), 1)).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "alqg", "alqg_nb", "amq", "amq_nb"})
    void payloadLengthMatchesTheReportedBits(String method) {
        for (int bits : new int[] {1, 2, 4, 8}) {
            for (int n : new int[] {1, 63, 1000}) {
                AdaptiveQuantizer q = create(method, bits, "1");
                Payload p = q.encode(gradient(n, n), 0, n);
                assertEquals(32L * ((n + 63) / 64) + (long) bits * n, p.bits());
                assertEquals((p.bits() + 7) / 8, p.bytes().length, method + " bits " + bits + " n " + n);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "alqg", "alqg_nb", "amq", "amq_nb"})
    void roundingIsUnbiasedWithTheFittedLevels(String method) {
        float[] g = gradient(256, 5);
        AdaptiveQuantizer q = create(method, 3, "1");
        double[] initial = q.levels();
        q.encode(g, 0, g.length);
        assertFalse(java.util.Arrays.equals(initial, q.levels()), "levels were refitted");
        // The schedule "1" refits at every step, so fix the levels: a copy past its first step's fit, set to them.
        AdaptiveQuantizer fixed = create(method, 3, "100000");
        fixed.encode(g, 0, g.length);
        fixed.setLevels(q.levels());
        new LevelOracle(q.levels(), true, 64).assertUnbiased(fixed, g, 2000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "alqg", "alqg_nb", "amq", "amq_nb"})
    void refitsHappenExactlyOnSchedule(String method) {
        AdaptiveQuantizer q = create(method, 3, "2,4");
        List<Integer> refitSteps = new ArrayList<>();
        for (int t = 1; t <= 12; t++) {
            long before = q.refits();
            q.encode(gradient(512, t), 0, 512);
            if (q.refits() > before) {
                refitSteps.add(t);
            }
        }
        // As the seed counts, by the steps done before: 0 (every period divides it), 2 listed, 4, 8 multiples of 4
        // (not 6, 10): the steps t = 1, 3, 5, 9.
        assertEquals(List.of(1, 3, 5, 9), refitSteps);
        assertTrue(AdaptiveQuantizer.refitsAt(1, List.of(100, 1000, 10000)));
        assertFalse(AdaptiveQuantizer.refitsAt(2, List.of(100, 1000, 10000)));
        assertFalse(AdaptiveQuantizer.refitsAt(100, List.of(100, 1000, 10000)));
        assertTrue(AdaptiveQuantizer.refitsAt(101, List.of(100, 1000, 10000)));
        assertFalse(AdaptiveQuantizer.refitsAt(5001, List.of(100, 1000, 10000)));
        assertTrue(AdaptiveQuantizer.refitsAt(20001, List.of(100, 1000, 10000)));
        // The seed's '0,80000,80000': a fit at the first step, then after every 80000.
        assertTrue(AdaptiveQuantizer.refitsAt(1, List.of(0, 80000, 80000)));
        assertFalse(AdaptiveQuantizer.refitsAt(2, List.of(0, 80000, 80000)));
        assertTrue(AdaptiveQuantizer.refitsAt(160001, List.of(0, 80000, 80000)));
        assertFalse(AdaptiveQuantizer.refitsAt(15001, List.of(100, 1000, 10000)));
        // '40000,60000,80000' (the seed's imagenet lists): listed counts below the period fit too.
        assertTrue(AdaptiveQuantizer.refitsAt(60001, List.of(40000, 60000, 80000)));
        assertFalse(AdaptiveQuantizer.refitsAt(120001, List.of(40000, 60000, 80000)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "alqg", "alqg_nb", "amq", "amq_nb"})
    void aRestoredInstanceContinuesIdentically(String method) throws IOException {
        AdaptiveQuantizer prototype = create(method, 3, "2,4");
        AdaptiveQuantizer saved = (AdaptiveQuantizer) prototype.copy(5);
        for (int t = 1; t <= 3; t++) {
            saved.encode(gradient(300, t), 0, 300);
        }
        java.io.ByteArrayOutputStream state = new java.io.ByteArrayOutputStream();
        saved.saveState(new java.io.DataOutputStream(state));
        AdaptiveQuantizer restored = (AdaptiveQuantizer) prototype.copy(5);
        restored.restoreState(new java.io.DataInputStream(new java.io.ByteArrayInputStream(state.toByteArray())));
        assertArrayEquals(saved.levels(), restored.levels());
        assertEquals(0, restored.refits(), "levels come back from the state, not a refit");
        for (int t = 4; t <= 8; t++) {
            float[] g = gradient(300, t);
            assertArrayEquals(saved.encode(g, 0, 300).copy().bytes(), restored.encode(g, 0, 300).copy().bytes(),
                    method + " step " + t);
        }
        assertEquals(saved.step(), restored.step());
        saved.reset();
        assertEquals(0, saved.step());
        assertArrayEquals(prototype.levels(), saved.levels());
    }

    @ParameterizedTest
    @ValueSource(strings = {"alq", "alq_nb", "alqg", "alqg_nb", "amq", "amq_nb"})
    void badParametersFailNamingTheRule(String method) {
        assertEquals("bits must be in [1, 8], found 9", message(method, Map.of("bits", 9L)));
        assertEquals("bits must be in [1, 8], found 0", message(method, Map.of("bits", 0L)));
        assertEquals("osnap_iter must not decrease, found '4,2'", message(method, Map.of("osnap_iter", "4,2")));
        assertEquals("osnap_iter must end in a positive period, found '0'", message(method,
                Map.of("osnap_iter", "0")));
        assertTrue(message(method, Map.of("osnap_iter", "-1,5")).startsWith("osnap_iter must hold non-negative "
                + "integers"));
        if (method.startsWith("amq")) {
            assertEquals("amq_lr must be positive, found 0.0", message(method, Map.of("amq_lr", 0.0)));
            assertEquals("amq_epochs must be in [0, 2147483647], found -1",
                    message(method, Map.of("amq_epochs", -1L)));
        } else {
            assertEquals("cd_epochs must be positive, found 0", message(method, Map.of("cd_epochs", 0L)));
        }
        if (method.endsWith("_nb")) {
            assertEquals("dist_num must be positive, found 0", message(method, Map.of("dist_num", 0L)));
        }
    }

    private static String message(String method, Map<String, Object> params) {
        return assertThrows(ConfigException.class, () -> Compressors.create(method, params, 1)).getMessage();
    }
}
