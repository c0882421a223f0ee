package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JointSqSearchTest {
    private static float linf(float[] g) {
        float m = 0;
        for (float v : g) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    /** The expected squared error of stochastic rounding with these widths (JointSq's levels), by brute force. */
    private static double expectedError(float[] g, byte[] widths) {
        double[] scale = new double[9];
        for (int i = 0; i < g.length; i++) {
            scale[widths[i]] = Math.max(scale[widths[i]], Math.abs(g[i]));
        }
        double e = 0;
        for (int i = 0; i < g.length; i++) {
            double a = Math.abs(g[i]);
            int w = widths[i];
            if (w == 0) {
                e += a * a;
                continue;
            }
            double s = scale[w];
            double step = w == 2 ? s / 2 : 2 * s / ((1 << w) - 1);
            double first = w == 2 ? 0 : -step / 2;
            double lo = first + Math.floor((a - first) / step) * step;
            e += Math.max(0, (a - lo) * (lo + step - a));
        }
        return e;
    }

    @Test
    void theCountsAndValueBitsAreExactAndWithinTheBudget() {
        float[] g = JointSqTest.heavy(20_000, 1);
        for (long budget : new long[] {0, 1, 7, 640, 20_480, 64_000, 640_000}) {
            byte[] widths = new byte[g.length + 5];
            long bits = new JointSqSearch().allocate(g, 0, g.length, linf(g), budget, widths);
            long[] k = new long[9];
            for (int i = 0; i < g.length; i++) {
                k[widths[i]]++;
            }
            assertEquals(JointSq.packedBits(k[2]) + 4 * k[4] + 8 * k[8], bits, "budget " + budget);
            assertTrue(bits <= budget, bits + " bits of " + budget);
            // at low rates every bit lowers the error; at 32 bits a value the 8-bit group's one scale (the tensor's
            // largest magnitude) is coarser for small values than a 4-bit group's, so the search leaves bits unused
            assertTrue(budget > 3.2 * g.length || bits >= 0.9 * budget - 8, bits + " bits of " + budget);
        }
    }

    @Test
    void itFindsNearlyTheBestThreeClassAllocation() {
        float[] g = JointSqTest.heavy(4000, 2);
        long budget = (long) Math.ceil(g.length * 32 * 0.032);
        byte[] widths = new byte[g.length];
        new JointSqSearch().allocate(g, 0, g.length, linf(g), budget, widths);
        double found = expectedError(g, widths);
        // every split of the sorted magnitudes into 8/4/2/0-bit classes on a grid of 20 values
        Integer[] order = new Integer[g.length];
        for (int i = 0; i < g.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Float.compare(Math.abs(g[b]), Math.abs(g[a])));
        double best = Double.POSITIVE_INFINITY;
        byte[] w = new byte[g.length];
        for (int k8 = 0; 8L * k8 <= budget; k8 += 20) {
            for (int k4 = 0; 8L * k8 + 4L * k4 <= budget; k4 += 20) {
                long k2 = Math.min(JointSq.mostPacked(budget - 8L * k8 - 4L * k4), g.length - k8 - k4);
                for (int r = 0; r < g.length; r++) {
                    w[order[r]] = (byte) (r < k8 ? 8 : r < k8 + k4 ? 4 : r < k8 + k4 + k2 ? 2 : 0);
                }
                best = Math.min(best, expectedError(g, w));
            }
        }
        assertTrue(found <= 1.05 * best, "search " + found + ", best on the grid " + best);
    }

    @Test
    void zerosNonFiniteAndTinyTensorsSendNothingOrFit() {
        byte[] widths = new byte[4];
        assertEquals(0, new JointSqSearch().allocate(new float[4], 0, 4, 0f, 100, widths));
        float[] nan = {1f, Float.NaN, 2f, 3f};
        assertEquals(0, new JointSqSearch().allocate(nan, 0, 4, Float.NaN, 100, widths));
        float[] one = {0.5f};
        byte[] w = new byte[1];
        assertEquals(3, new JointSqSearch().allocate(one, 0, 1, 0.5f, 32, w), "its own scale: exact at 2 bits");
        assertEquals(2, w[0]);
    }
}
