package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * QSGD's variance bound {@code E‖Q(v) − v‖² ≤ min(n/s², √n/s)·‖v‖²} under the seed's level convention.
 *
 * <p>Here {@code s = (2^bits − 1)/2}, the inverse of the level spacing {@code 2/(2^bits − 1)}: the number of level
 * intervals per unit, which is QSGD's {@code s}. Every value's variance is at most {@code spacing²/4 = 1/(4s²)}
 * times {@code ‖v‖²}, so the {@code n/s²} term holds for every {@code bits}. The {@code √n/s} term needs a level at
 * zero (QSGD's sign bit gives one); the seed's {@code 2^bits} signed levels have none, and a value near zero keeps
 * variance near {@code 1/(4s²)}, so that term fails for a long vector of small values: the second test shows it,
 * and a quantizer with a zero level ({-1, 0, 1} under the L2 norm) meets it.
 */
class QsgdVarianceTest {
    private static final int DRAWS = 2000;

    /** Levels {-1, 0, 1} under the L2 norm: QSGD with s = 1 and a zero level. */
    private static final class ZeroLevel extends LevelQuantizer {
        ZeroLevel(int bucket) {
            super(2, bucket, false, Norm.L2, new double[] {-1, 0, 1}, false, 11, 0);
        }

        @Override
        public String name() {
            return "zero-level";
        }

        @Override
        public Map<String, Object> config() {
            return Map.of();
        }

        @Override
        public Compressor copy(long stream) {
            return this;
        }
    }

    private static double meanSquaredError(Compressor c, float[] v) {
        float[] out = new float[v.length];
        double total = 0;
        for (int r = 0; r < DRAWS; r++) {
            c.decode(c.encode(v, 0, v.length), out, 0);
            for (int i = 0; i < v.length; i++) {
                total += (double) (out[i] - v[i]) * (out[i] - v[i]) / DRAWS;
            }
        }
        return total;
    }

    private static double exactVariance(LevelOracle oracle, float[] v) {
        double sum = 0;
        for (int i = 0; i < v.length; i++) {
            sum += oracle.variance(v, i);
        }
        return sum;
    }

    @Test
    void empiricalVarianceMatchesTheOracleAndMeetsTheNOverSSquaredBound() {
        for (int n : new int[] {16, 256}) {
            float[] v = TestGradients.gaussian(n, n);
            for (int bits = 1; bits <= 8; bits++) {
                Compressor qsgd = Compressors.create("qsgd", Map.of("bits", (long) bits, "bucket_size", (long) n), 3);
                LevelOracle oracle = new LevelOracle(LevelQuantizer.uniformLevels(1 << bits), true, n);
                double squaredNorm = oracle.norm(v, 0) * oracle.norm(v, 0);
                double s = ((1 << bits) - 1) / 2.0;
                double measured = meanSquaredError(qsgd, v);
                double exact = exactVariance(oracle, v);
                assertEquals(exact, measured, 0.05 * exact, "n " + n + ", bits " + bits);
                assertTrue(measured <= n / (s * s) * squaredNorm, "n " + n + ", bits " + bits + ": " + measured);
                assertTrue(exact <= n / (4 * s * s) * squaredNorm * (1 + 1e-9), "per-value bound 1/(4s²)");
            }
        }
    }

    @Test
    void theSqrtNOverSTermNeedsAZeroLevel() {
        int n = 1024;
        float[] v = TestGradients.gaussian(n, 5);
        LevelOracle seed = new LevelOracle(LevelQuantizer.uniformLevels(4), true, n);
        double squaredNorm = seed.norm(v, 0) * seed.norm(v, 0);
        double noZero = meanSquaredError(Compressors.create("qsgd", Map.of("bits", 2L, "bucket_size", (long) n), 3), v);
        assertTrue(noZero > Math.sqrt(n) / 1.5 * squaredNorm, "2 bits, s = 1.5, no zero level: " + noZero);

        double withZero = meanSquaredError(new ZeroLevel(n), v);
        assertTrue(withZero <= Math.min(n, Math.sqrt(n)) * squaredNorm, "levels {-1, 0, 1}, s = 1: " + withZero);
        LevelOracle ternary = new LevelOracle(new double[] {-1, 0, 1}, true, n);
        assertEquals(exactVariance(ternary, v), withZero, 0.05 * withZero);
    }
}
