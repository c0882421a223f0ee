package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class TernGradTest {
    private static final LevelOracle TERNARY = new LevelOracle(new double[] {-1, 0, 1}, false, 16);

    private static Compressor trn(int bucket, boolean clip, long seed) {
        return Compressors.create("trn", Map.of("bucket_size", (long) bucket, "clip", clip), seed);
    }

    private static double sigma(float[] g, int from, int to) {
        double mean = 0;
        for (int i = from; i < to; i++) {
            mean += g[i] / (double) (to - from);
        }
        double var = 0;
        for (int i = from; i < to; i++) {
            var += (g[i] - mean) * (g[i] - mean) / (to - from);
        }
        return Math.sqrt(var);
    }

    @Test
    void payloadHoldsNormsThenTwoBitsPerValue() {
        for (int n : new int[] {1, 7, 100, 1000}) {
            LevelOracle.assertExactLength(trn(64, false, 1), TestGradients.gaussian(n, n),
                    32 * ((n + 63) / 64) + 2L * n);
        }
    }

    @Test
    void everyValueLandsOnALevelAroundIt() {
        float[] g = TestGradients.gaussian(1000, 1);
        new LevelOracle(new double[] {-1, 0, 1}, false, 128).assertOnNeighbouringLevels(trn(128, false, 5), g);
    }

    @Test
    void decodedValuesAreUnbiased() {
        float[] g = TestGradients.gaussian(64, 3);
        g[5] = 0f;
        TERNARY.assertUnbiased(trn(16, false, 17), g, 2000);
    }

    @Test
    void clippingLeavesNoValueAboveTwoAndAHalfSigmas() {
        // A spike of 50 in a bucket of unit Gaussians: its σ is about 6, so clipping bounds every decoded value by
        // about 15, where without clipping the spike itself is the scale and survives.
        float[] g = TestGradients.gaussian(256, 4);
        g[10] = 50f;
        g[200] = -40f;
        float[] clipped = TestGradients.roundTrip(trn(128, true, 2), g);
        float[] plain = TestGradients.roundTrip(trn(128, false, 2), g);
        for (int b = 0; b < 2; b++) {
            double bound = 2.5 * sigma(g, 128 * b, 128 * b + 128);
            for (int i = 128 * b; i < 128 * b + 128; i++) {
                assertTrue(Math.abs(clipped[i]) <= bound * (1 + 1e-6), "value " + i + ": " + clipped[i]
                        + " above 2.5σ = " + bound);
            }
        }
        assertEquals(50f, plain[10]);
        assertTrue(Math.abs(clipped[10]) < 20, "the spike is clipped: " + clipped[10]);
    }

    @Test
    void clippedDecodingIsUnbiasedForTheClippedValues() {
        float[] g = TestGradients.gaussian(64, 5);
        g[3] = 30f;
        float[] clippedInput = g.clone();
        for (int b = 0; b < 4; b++) {
            float bound = (float) (2.5 * sigma(g, 16 * b, 16 * b + 16));
            for (int i = 16 * b; i < 16 * b + 16; i++) {
                clippedInput[i] = Math.min(Math.max(g[i], -bound), bound);
            }
        }
        TERNARY.assertUnbiased(trn(16, true, 6), g, clippedInput, 2000);
    }

    @Test
    void seedStreamAndSavedStateDetermineThePayload() throws IOException {
        float[] g = TestGradients.gaussian(301, 9);
        LevelOracle.assertDeterministic(trn(64, true, 21), g);
        LevelOracle.assertRestoredContinues(trn(64, true, 21), g);
    }

    @Test
    void badParametersFailNamingTheRule() {
        assertEquals("bucket_size must be positive, found 0", assertThrows(ConfigException.class,
                () -> Compressors.create("trn", Map.of("bucket_size", 0L), 1)).getMessage());
        assertEquals("clip must be true or false (or '' for true), found 'yes'", assertThrows(ConfigException.class,
                () -> Compressors.create("trn", Map.of("clip", "yes"), 1)).getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> Compressors.create("trn", Map.of("bits", 2L), 1))
                .getMessage().startsWith("unknown trn parameter 'bits'"), "trn always sends 2 bits");
    }

    @Test
    void configIsReported() {
        assertEquals(Map.of("bucket_size", 8192L, "per_layer", false, "ignore_small_buckets", false, "clip", false),
                Compressors.create("trn", Map.of(), 1).config());
    }
}
