package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class QinfTest {
    private static Compressor qinf(int bits, int bucket, long seed) {
        return Compressors.create("qinf", Map.of("bits", (long) bits, "bucket_size", (long) bucket), seed);
    }

    private static LevelOracle oracle(int bits, int bucket) {
        return new LevelOracle(LevelQuantizer.uniformLevels(1 << bits), false, bucket);
    }

    @Test
    void payloadHoldsNormsThenBitsPerValue() {
        for (int n : new int[] {1, 7, 100, 1000}) {
            for (int bits = 1; bits <= 8; bits++) {
                long buckets = (n + 63) / 64;
                LevelOracle.assertExactLength(qinf(bits, 64, 1), TestGradients.gaussian(n, n), 32 * buckets
                        + (long) bits * n);
            }
        }
    }

    @Test
    void everyValueLandsOnALevelAroundIt() {
        float[] g = TestGradients.gaussian(1000, 1);
        for (int bits = 1; bits <= 8; bits++) {
            oracle(bits, 128).assertOnNeighbouringLevels(qinf(bits, 128, 5), g);
        }
    }

    @Test
    void decodedValuesAreUnbiased() {
        float[] g = TestGradients.gaussian(64, 3);
        g[5] = 0f;
        for (int bits : new int[] {1, 2, 3}) {
            oracle(bits, 16).assertUnbiased(qinf(bits, 16, 17), g, 2000);
        }
    }

    @Test
    void theLargestValueOfABucketIsSentExactly() {
        float[] g = {0.5f, -4f, 1f, 2f, 3f, -1f};
        float[] out = TestGradients.roundTrip(qinf(2, 3, 1), g);
        assertEquals(-4f, out[1]);
        assertEquals(3f, out[4]);
    }

    @Test
    void seedStreamAndSavedStateDetermineThePayload() throws IOException {
        float[] g = TestGradients.gaussian(301, 9);
        LevelOracle.assertDeterministic(qinf(3, 64, 21), g);
        LevelOracle.assertRestoredContinues(qinf(3, 64, 21), g);
    }

    @Test
    void badParametersFailNamingTheRule() {
        assertEquals("bits must be in [1, 8], found 0", assertThrows(ConfigException.class,
                () -> Compressors.create("qinf", Map.of("bits", 0L), 1)).getMessage());
        assertEquals("bucket_size must be positive, found -1", assertThrows(ConfigException.class,
                () -> Compressors.create("qinf", Map.of("bucket_size", -1L), 1)).getMessage());
    }

    @Test
    void configIsReported() {
        assertEquals(Map.of("bits", 4L, "bucket_size", 8192L, "per_layer", false, "ignore_small_buckets", false),
                Compressors.create("qinf", Map.of(), 1).config());
    }
}
