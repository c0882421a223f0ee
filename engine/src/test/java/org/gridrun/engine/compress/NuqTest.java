package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class NuqTest {
    private static Nuq nuq(int bits, int bucket, double mul, long seed) {
        return (Nuq) Compressors.create("nuq", Map.of("bits", (long) bits, "bucket_size", (long) bucket, "mul", mul),
                seed);
    }

    private static LevelOracle oracle(Nuq nuq, int bucket) {
        return new LevelOracle(nuq.levels(), true, bucket);
    }

    @Test
    void levelsAreExactlyPlusMinusPowersOfMul() {
        assertArrayEquals(new double[] {-1, -0.5, -0.25, -0.125, 0.125, 0.25, 0.5, 1}, nuq(3, 8, 0.5, 1).levels());
        assertArrayEquals(new double[] {-1, 1}, nuq(1, 8, 0.5, 1).levels());
        double p = 0.3;
        double[] levels = nuq(4, 8, p, 1).levels();
        assertEquals(16, levels.length);
        for (int j = 0; j < 8; j++) {
            assertEquals(Math.pow(p, j), levels[15 - j], 1e-15 * Math.pow(p, j), "level +p^" + j);
            assertEquals(-Math.pow(p, j), levels[j], 1e-15 * Math.pow(p, j), "level -p^" + j);
        }
    }

    @Test
    void payloadHoldsNormsThenBitsPerValue() {
        for (int n : new int[] {1, 7, 100, 1000}) {
            for (int bits = 1; bits <= 8; bits++) {
                long buckets = (n + 63) / 64;
                LevelOracle.assertExactLength(nuq(bits, 64, 0.5, 1), TestGradients.gaussian(n, n), 32 * buckets
                        + (long) bits * n);
            }
        }
    }

    @Test
    void everyValueLandsOnALevelAroundIt() {
        float[] g = TestGradients.gaussian(1000, 1);
        for (int bits = 1; bits <= 8; bits++) {
            Nuq nuq = nuq(bits, 128, 0.6, 5);
            oracle(nuq, 128).assertOnNeighbouringLevels(nuq, g);
        }
    }

    @Test
    void decodedValuesAreUnbiasedIncludingBetweenTheSmallestLevels() {
        // Bucket 16 with 3 bits, p = 0.5: the smallest levels are ±1/8, and a few normalised values fall between
        // them, where rounding chooses between −1/8 and +1/8.
        float[] g = TestGradients.gaussian(64, 3);
        g[5] = 0f;
        g[6] = 0.01f;
        for (int bits : new int[] {1, 2, 3}) {
            Nuq nuq = nuq(bits, 16, 0.5, 17);
            oracle(nuq, 16).assertUnbiased(nuq, g, 2000);
        }
    }

    @Test
    void seedStreamAndSavedStateDetermineThePayload() throws IOException {
        float[] g = TestGradients.gaussian(301, 9);
        LevelOracle.assertDeterministic(nuq(3, 64, 0.5, 21), g);
        LevelOracle.assertRestoredContinues(nuq(3, 64, 0.5, 21), g);
    }

    @Test
    void badParametersFailNamingTheRule() {
        assertEquals("mul must be in (0, 1), found 1.0", assertThrows(ConfigException.class,
                () -> Compressors.create("nuq", Map.of("mul", 1.0), 1)).getMessage());
        assertEquals("mul must be in (0, 1), found 0", assertThrows(ConfigException.class,
                () -> Compressors.create("nuq", Map.of("mul", 0L), 1)).getMessage());
        assertEquals("mul must give 256 distinct levels ±mul^j for bits 8, found 1.0E-10",
                assertThrows(ConfigException.class,
                        () -> Compressors.create("nuq", Map.of("mul", 1e-10, "bits", 8L), 1)).getMessage());
        assertEquals("bits must be in [1, 8], found 9", assertThrows(ConfigException.class,
                () -> Compressors.create("nuq", Map.of("bits", 9L), 1)).getMessage());
    }

    @Test
    void configIsReported() {
        assertEquals(Map.of("bits", 4L, "bucket_size", 8192L, "per_layer", false, "ignore_small_buckets", false,
                "mul", 0.5),
                Compressors.create("nuq", Map.of(), 1).config());
    }
}
