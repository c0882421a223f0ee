package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class JointSqTest {
    private static final TensorLayout LAYOUT = TensorLayout.of(List.of("conv", "bias", "fc"),
            List.of(new int[] {64, 3, 3, 3}, new int[] {64}, new int[] {100, 50}));

    private static JointSq jointsq(double rate, long stream) {
        JointSq c = (JointSq) Compressors.create("jointsq", Map.of("rate", rate, "sample_ratio", 0.05), 9)
                .copy(stream);
        c.bind(LAYOUT);
        return c;
    }

    /** Heavy-tailed values, as gradients are: a Gaussian times an exponential. */
    static float[] heavy(int n, long seed) {
        Random rng = new Random(seed);
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) (rng.nextGaussian() * -Math.log(1 - rng.nextDouble()));
        }
        return g;
    }

    private static JointSq jointsq(double rate, String allocation, long stream) {
        JointSq c = (JointSq) Compressors.create("jointsq", Map.of("rate", rate, "allocation", allocation), 9)
                .copy(stream);
        c.bind(LAYOUT);
        return c;
    }

    /**
     * Walks the payload's layout, reading each width map with {@link WidthMap} and skipping the scales and codes it
     * implies; checks that they account for every bit; returns the widths.
     */
    private static int[] widths(Payload p, TensorLayout layout) {
        BitReader reader = new BitReader().reset(p.bytes(), 0);
        int[] widths = new int[layout.size()];
        byte[] symbols = new byte[layout.size()];
        long side = 0;
        for (TensorLayout.Tensor t : layout.tensors()) {
            long start = reader.position();
            new WidthMap().read(reader, symbols, t.offset(), t.size());
            long[] k = new long[4];
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                widths[i] = symbols[i] == 0 ? 0 : 1 << symbols[i];
                k[symbols[i]]++;
            }
            for (int g = 1; g < 4; g++) {
                if (k[g] > 0) {
                    reader.read(32);
                }
            }
            side += reader.position() - start;
            long valueBits = JointSq.packedBits(k[1]) + 4 * k[2] + 8 * k[3];
            for (long b = valueBits; b > 0; b -= Math.min(b, 32)) {
                reader.read((int) Math.min(b, 32));
            }
        }
        assertEquals(p.bits(), reader.position(), "the tensors account for every bit");
        assertEquals(side, p.sideBits(), "the maps and scales are the side bits");
        assertEquals((p.bits() + 7) / 8, p.bytes().length);
        return widths;
    }

    /** The value bits of a tensor's widths as sent: 2-bit values packed three in 7 bits. */
    private static long valueBits(int[] widths, TensorLayout.Tensor t) {
        long[] k = new long[9];
        for (int i = t.offset(); i < t.offset() + t.size(); i++) {
            k[widths[i]]++;
        }
        return JointSq.packedBits(k[2]) + 4 * k[4] + 8 * k[8];
    }

    @Test
    void valueBitsOfEveryTensorStayWithinItsBudgetAndUseMostOfIt() {
        for (double rate : new double[] {0.01, 0.032, 0.1, 0.2}) {
            JointSq c = jointsq(rate, 1);
            for (int step = 0; step < 5; step++) {
                float[] g = step % 2 == 0 ? heavy(LAYOUT.size(), step) : TestGradients.gaussian(LAYOUT.size(), step);
                int[] widths = widths(c.encode(g, 0, g.length), LAYOUT);
                for (TensorLayout.Tensor t : LAYOUT.tensors()) {
                    long used = valueBits(widths, t);
                    long budget = c.budget(t.size());
                    assertTrue(used <= budget, t + " at rate " + rate + " used " + used + " of " + budget);
                    assertTrue(used >= 0.75 * budget - 8, t + " at rate " + rate + " used " + used + " of " + budget);
                }
            }
        }
    }

    @Test
    void theKnapsackCountsTwoBitValuesAsThePaperDoes() {
        JointSq c = jointsq(0.05, "knapsack", 1);
        float[] g = heavy(LAYOUT.size(), 2);
        int[] widths = widths(c.encode(g, 0, g.length), LAYOUT);
        for (TensorLayout.Tensor t : LAYOUT.tensors()) {
            long nominal = 0;
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                nominal += widths[i];
            }
            assertTrue(nominal <= c.budget(t.size()), t + " used " + nominal + " of " + c.budget(t.size()));
            assertTrue(valueBits(widths, t) > nominal, "what the paper's accounting leaves out");
        }
    }

    @Test
    void widerCodesGoToLargerMagnitudes() {
        float[] g = heavy(LAYOUT.size(), 3);
        int[] widths = widths(jointsq(0.1, 0).encode(g, 0, g.length), LAYOUT);
        for (TensorLayout.Tensor t : LAYOUT.tensors()) {
            float[] smallest = {Float.MAX_VALUE, Float.MAX_VALUE, Float.MAX_VALUE, Float.MAX_VALUE};
            float[] largest = new float[4];
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                int s = widths[i] == 0 ? 0 : Integer.numberOfTrailingZeros(widths[i]);
                smallest[s] = Math.min(smallest[s], Math.abs(g[i]));
                largest[s] = Math.max(largest[s], Math.abs(g[i]));
            }
            for (int s = 1; s < 4; s++) {
                float below = 0;
                for (int r = 0; r < s; r++) {
                    below = Math.max(below, largest[r]);
                }
                // the 2-bit group's last bin (1/16 octave) is shared with unsent values, by position
                float tolerance = s == 1 ? 1.05f : 1f;
                assertTrue(below <= smallest[s] * tolerance, t + ": width " + (1 << s) + " starts at " + smallest[s]
                        + ", narrower ones reach " + below);
            }
        }
    }

    @Test
    void everySentValueLiesWithinOneLevelOfItsGroupScale() {
        float[] g = heavy(LAYOUT.size(), 7);
        JointSq c = jointsq(0.2, 0);
        Payload p = c.encode(g, 0, g.length);
        int[] widths = widths(p, LAYOUT);
        float[] out = new float[g.length];
        c.decode(p, out, 0);
        for (TensorLayout.Tensor t : LAYOUT.tensors()) {
            float[] scale = new float[9];
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                scale[widths[i]] = Math.max(scale[widths[i]], Math.abs(g[i]));
            }
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                int w = widths[i];
                // five levels 0, ±s/2, ±s at 2 bits; 2^w symmetric levels (2j − L)/L·s, L = 2^w − 1, above
                double spacing = w == 0 ? 0 : w == 2 ? scale[2] / 2 : 2.0 * scale[w] / ((1 << w) - 1);
                assertTrue(Math.abs(out[i] - g[i]) <= (w == 0 ? Math.abs(g[i]) : spacing * (1 + 1e-5)),
                        t + " value " + i + " of width " + w + ": " + g[i] + " decoded as " + out[i]);
                assertTrue(w != 2 || out[i] == 0f || Math.signum(out[i]) == Math.signum(g[i]), "sign of " + i);
            }
            assertTrue(scale[2] + scale[4] + scale[8] > 0, t + " sends nothing");
        }
    }

    @Test
    void sentValuesAreUnbiased() {
        float[] g = heavy(LAYOUT.size(), 11);
        int draws = 3000;
        double[] sum = new double[g.length];
        int[] widths = null;
        float[] out = new float[g.length];
        for (int r = 0; r < draws; r++) {
            JointSq c = jointsq(0.1, r);
            Payload p = c.encode(g, 0, g.length);
            int[] w = widths(p, LAYOUT);
            if (widths == null) {
                widths = w;
            }
            assertArrayEquals(widths, w, "the allocation draws no random numbers");
            c.decode(p, out, 0);
            for (int i = 0; i < g.length; i++) {
                sum[i] += out[i];
            }
        }
        for (TensorLayout.Tensor t : LAYOUT.tensors()) {
            float[] scale = new float[9];
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                scale[widths[i]] = Math.max(scale[widths[i]], Math.abs(g[i]));
            }
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                double expected = widths[i] == 0 ? 0 : g[i];
                double tolerance = 5 * scale[widths[i]] / Math.sqrt(draws) + 1e-6;
                assertEquals(expected, sum[i] / draws, tolerance, t + " value " + i + " of width " + widths[i]);
            }
        }
    }

    @Test
    void theSearchBeatsThePapersKnapsackAtTheSameValueBits() {
        float[] g = heavy(LAYOUT.size(), 13);
        double norm = 0;
        for (float v : g) {
            norm += (double) v * v;
        }
        double[] error = new double[2];
        long[] bits = new long[2];
        for (int a = 0; a < 2; a++) {
            for (int r = 0; r < 20; r++) {
                JointSq c = jointsq(0.032, a == 0 ? "search" : "knapsack", r);
                Payload p = c.encode(g, 0, g.length);
                float[] out = new float[g.length];
                c.decode(p, out, 0);
                for (int i = 0; i < g.length; i++) {
                    error[a] += (out[i] - g[i]) * (double) (out[i] - g[i]) / norm / 20;
                }
                bits[a] = p.valueBits();
            }
        }
        assertTrue(bits[0] <= bits[1], "value bits " + bits[0] + " vs " + bits[1]);
        assertTrue(error[0] < 0.8 * error[1], "errors " + error[0] + " vs " + error[1]);
    }

    @Test
    void whatIsNotSentStaysInTheResidual() {
        JointSq c = jointsq(0.05, 2);
        int n = LAYOUT.size();
        double[] given = new double[n];
        double[] sent = new double[n];
        for (int step = 0; step < 10; step++) {
            float[] g = heavy(n, step);
            float[] out = TestGradients.roundTrip(c, g);
            for (int i = 0; i < n; i++) {
                given[i] += g[i];
                sent[i] += out[i];
            }
        }
        for (int i = 0; i < n; i++) {
            assertEquals(given[i], sent[i] + c.residual()[i], 1e-3, "value " + i);
        }
    }

    @Test
    void unboundInstanceTreatsTheGradientAsOneTensor() {
        Compressor c = Compressors.create("jointsq", Map.of(), 1);
        float[] g = heavy(5000, 1);
        TensorLayout flat = TensorLayout.flat(5000);
        long used = valueBits(widths(c.encode(g, 0, g.length), flat), flat.tensors().get(0));
        assertTrue(used <= (long) Math.ceil(5000 * 32 * 0.032), "used " + used);
    }

    @Test
    void sameStreamSameBitsAndSavedStateContinuesIdentically() throws IOException {
        JointSq a = jointsq(0.05, 4);
        JointSq b = jointsq(0.05, 4);
        float[] g = heavy(LAYOUT.size(), 5);
        assertArrayEquals(TestGradients.roundTrip(a, g), TestGradients.roundTrip(b, g));
        JointSq resumed = jointsq(0.05, 4);
        SparseTesting.restore(resumed, SparseTesting.save(a));
        for (int step = 0; step < 3; step++) {
            float[] next = heavy(LAYOUT.size(), 10 + step);
            assertArrayEquals(TestGradients.roundTrip(a, next), TestGradients.roundTrip(resumed, next));
        }
        assertArrayEquals(a.residual(), resumed.residual());
    }

    @Test
    void rateOutsideZeroToOneFailsNamingIt() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Compressors.create("jointsq", Map.of("rate", 0.0), 1));
        assertTrue(e.getMessage().startsWith("rate must be in (0, 1]"), e.getMessage());
        assertEquals("allocation must be one of [search, knapsack], found 'greedy'", assertThrows(
                ConfigException.class, () -> Compressors.create("jointsq", Map.of("allocation", "greedy"), 1))
                .getMessage());
    }
}
