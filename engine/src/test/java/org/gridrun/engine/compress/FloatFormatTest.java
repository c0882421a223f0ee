package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FloatFormatTest {
    private static final FloatFormat FP16 = FloatFormat.FP16;

    private static float nearest(FloatFormat f, double x) {
        return f.decode(f.encodeNearest((float) x));
    }

    @Test
    void fp16NearestEdgeValues() {
        assertEquals(65504f, nearest(FP16, 65504), "largest finite");
        assertEquals(65504f, nearest(FP16, 65520), "overflow saturates instead of rounding to Inf");
        assertEquals(-65504f, nearest(FP16, -1e30), "far beyond max");
        assertEquals(65504f, FP16.decode(FP16.encodeNearest(Float.POSITIVE_INFINITY)), "Inf saturates too");
        assertEquals(0x1.0p-24f, nearest(FP16, 0x1.0p-24), "smallest subnormal");
        assertEquals(0f, nearest(FP16, 0x1.0p-25), "half the smallest subnormal ties to even: 0");
        assertEquals(0x1.0p-24f, nearest(FP16, 0x1.8p-25), "above the tie rounds up");
        assertEquals(2 * 0x1.0p-24f, nearest(FP16, 0x1.8p-24), "1.5 units ties to even: 2 units");
        assertEquals(1f, nearest(FP16, 1 + 0x1.0p-11), "tie goes to the even 1.0");
        assertEquals(1 + 0x1.0p-9f, nearest(FP16, 1 + 3 * 0x1.0p-11), "tie goes to the even 1 + 2^-9");
        assertEquals(0x1.0p-14f, nearest(FP16, 0x1.0p-14), "smallest normal");
        assertEquals(0x1.0p-14f, nearest(FP16, 0x1.ffcp-15 + 0x1.0p-26), "largest subnormal rounds up to normal");
        assertTrue(Float.isNaN(FP16.decode(FP16.encodeNearest(Float.NaN))));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(nearest(FP16, -0.0)), "-0 kept");
    }

    @Test
    void fp16CodesMatchAHandTable() {
        // IEEE 754 binary16 bit patterns, from the standard's definition (Java 17 has no Float.floatToFloat16).
        double[] values = {1, -2, 0.5, 65504, 0x1.0p-24, 0x1.ff8p-15, 0x1.0p-14, 0.333251953125, 1024, -0.0};
        int[] codes = {0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0001, 0x03FF, 0x0400, 0x3555, 0x6400, 0x8000};
        for (int i = 0; i < values.length; i++) {
            assertEquals(codes[i], FP16.encodeNearest((float) values[i]), "code of " + values[i]);
            assertEquals((float) values[i], FP16.decode(codes[i]), "value of " + Integer.toHexString(codes[i]));
        }
        assertEquals(0x7C00, FP16.encodeNearest(Float.NaN) & 0x7C00, "NaN has the all-ones exponent");
    }

    @Test
    void bf16AndE5m2NearestEdgeValues() {
        FloatFormat bf16 = FloatFormat.BF16;
        assertEquals(1f, nearest(bf16, 1 + 0x1.0p-8), "tie goes to the even 1.0");
        assertEquals(1 + 0x1.0p-6f, nearest(bf16, 1 + 3 * 0x1.0p-8), "tie goes to the even 1 + 2^-6");
        assertEquals(0x3F80, bf16.encodeNearest(1f), "bf16 is float32's top half");
        assertEquals(Float.floatToRawIntBits(3.140625f) >>> 16, bf16.encodeNearest(3.140625f));
        assertEquals(bf16.max(), nearest(bf16, Float.MAX_VALUE), "saturates below float32's max");
        assertEquals(0x1.0p-133f, bf16.minSubnormal());
        FloatFormat e5m2 = FloatFormat.E5M2;
        assertEquals(57344f, e5m2.max());
        assertEquals(57344f, nearest(e5m2, 61440), "the tie with the next binade saturates");
        assertEquals(0x1.0p-16f, e5m2.minSubnormal());
        assertEquals(1f, nearest(e5m2, 1.125), "tie between 1 and 1.25 goes to the even 1");
        assertEquals(1.5f, nearest(e5m2, 1.375), "tie between 1.25 and 1.5 goes to the even 1.5");
    }

    @Test
    void everyCodeDecodesAndReencodesToItself() {
        for (FloatFormat f : new FloatFormat[] {FP16, FloatFormat.E5M2, new FloatFormat(4, 3)}) {
            for (int code = 0; code < 1 << f.width(); code++) {
                float v = f.decode(code);
                if (Float.isFinite(v)) {
                    assertEquals(code, f.encodeNearest(v), f + " code " + code);
                }
            }
        }
    }

    @Test
    void nearestIsTheClosestRepresentableValue() {
        // Independent oracle: scan all finite fp16 values for the closest one.
        Random rng = new Random(4);
        for (int t = 0; t < 2000; t++) {
            float x = (float) (rng.nextGaussian() * Math.pow(2, rng.nextInt(40) - 25));
            float got = nearest(FP16, x);
            double best = Double.MAX_VALUE;
            for (int code = 0; code < 0x7C00; code++) {
                double d = Math.abs(Math.abs(x) - FP16.decode(code));
                best = Math.min(best, d);
            }
            assertEquals(best, Math.abs(Math.abs(x) - Math.abs(got)), x + " → " + got);
        }
    }

    @Test
    void stochasticRoundingIsUnbiasedAndPicksANeighbour() {
        Random rng = new Random(7);
        double[] xs = {1 + 0x1.0p-12, 0.1, 0x1.8p-26, -3.3e-6, 1000.3};
        for (FloatFormat f : new FloatFormat[] {FP16, FloatFormat.BF16, FloatFormat.E5M2}) {
            for (double x : xs) {
                float xf = (float) x;
                float down = f.decode(f.encode(xf, 0));
                float up = f.decode(f.encode(xf, 0xFFFFFFFFL));
                int draws = 4000;
                double sum = 0;
                for (int r = 0; r < draws; r++) {
                    float v = f.decode(f.encode(xf, rng.nextInt() & 0xFFFFFFFFL));
                    assertTrue(v == down || v == up, f + ": " + xf + " → " + v + ", not " + down + " or " + up);
                    sum += v;
                }
                if (up == down) {
                    assertEquals(xf, sum / draws, f + ": " + xf + " is representable");
                    continue;
                }
                double p = ((double) xf - down) / ((double) up - down);
                double se = Math.abs(up - down) * Math.sqrt(p * (1 - p) / draws);
                assertEquals(xf, sum / draws, 5 * se + 1e-12 * Math.abs(xf), f + " mean of " + xf);
            }
        }
    }

    @Test
    void badShapesFail() {
        assertEquals("exponentBits must be in [2, 8], found 9",
                assertThrows(IllegalArgumentException.class, () -> new FloatFormat(9, 2)).getMessage());
        assertEquals("mantissaBits must be in [1, 23], found 0",
                assertThrows(IllegalArgumentException.class, () -> new FloatFormat(5, 0)).getMessage());
    }
}
