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
    private static float[] heavy(int n, long seed) {
        Random rng = new Random(seed);
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) (rng.nextGaussian() * -Math.log(1 - rng.nextDouble()));
        }
        return g;
    }

    /** Reads the width maps back from the payload, independently of the decoder; returns the widths. */
    private static int[] widths(Payload p, TensorLayout layout) {
        BitReader reader = new BitReader().reset(p.bytes(), 0);
        int[] widths = new int[layout.size()];
        long bits = 0;
        for (TensorLayout.Tensor t : layout.tensors()) {
            long valueBits = 0;
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                int code = reader.read(2);
                widths[i] = code == 0 ? 0 : 1 << code;
                valueBits += widths[i];
            }
            for (int g = 0; g < 3; g++) {
                reader.read(32);
            }
            for (long b = valueBits; b > 0; b -= Math.min(b, 32)) {
                reader.read((int) Math.min(b, 32));
            }
            bits += 2L * t.size() + 96 + valueBits;
        }
        assertEquals(bits, p.bits());
        assertEquals((p.bits() + 7) / 8, p.bytes().length);
        return widths;
    }

    @Test
    void valueBitsOfEveryTensorStayWithinItsBudgetAndUseMostOfIt() {
        for (double rate : new double[] {0.01, 0.032, 0.1, 0.2}) {
            JointSq c = jointsq(rate, 1);
            for (int step = 0; step < 5; step++) {
                float[] g = step % 2 == 0 ? heavy(LAYOUT.size(), step) : SparseTesting.gaussian(LAYOUT.size(), step);
                int[] widths = widths(c.encode(g, 0, g.length), LAYOUT);
                for (TensorLayout.Tensor t : LAYOUT.tensors()) {
                    long used = 0;
                    for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                        used += widths[i];
                    }
                    long budget = c.budget(t.size());
                    assertTrue(used <= budget, t + " at rate " + rate + " used " + used + " of " + budget);
                    assertTrue(used >= 0.75 * budget - 8, t + " at rate " + rate + " used " + used + " of " + budget);
                }
            }
        }
    }

    @Test
    void widerCodesGoToLargerMagnitudes() {
        float[] g = heavy(LAYOUT.size(), 3);
        int[] widths = widths(jointsq(0.1, 0).encode(g, 0, g.length), LAYOUT);
        for (TensorLayout.Tensor t : LAYOUT.tensors()) {
            float smallestOfWidth8 = Float.MAX_VALUE;
            float largestBelow8 = 0;
            for (int i = t.offset(); i < t.offset() + t.size(); i++) {
                if (widths[i] == 8) {
                    smallestOfWidth8 = Math.min(smallestOfWidth8, Math.abs(g[i]));
                } else {
                    largestBelow8 = Math.max(largestBelow8, Math.abs(g[i]));
                }
            }
            assertTrue(largestBelow8 <= smallestOfWidth8, t.toString());
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
                double spacing = w == 0 ? 0 : scale[w] / ((1 << (w - 1)) - 1);
                assertTrue(Math.abs(out[i] - g[i]) <= (w == 0 ? Math.abs(g[i]) : spacing * (1 + 1e-5)),
                        t + " value " + i + " of width " + w + ": " + g[i] + " decoded as " + out[i]);
                assertTrue(out[i] == 0f || Math.signum(out[i]) == Math.signum(g[i]), "sign of value " + i);
            }
            assertTrue(scale[2] + scale[4] + scale[8] > 0, t + " sends nothing");
        }
    }

    @Test
    void whatIsNotSentStaysInTheResidual() {
        JointSq c = jointsq(0.05, 2);
        int n = LAYOUT.size();
        double[] given = new double[n];
        double[] sent = new double[n];
        for (int step = 0; step < 10; step++) {
            float[] g = heavy(n, step);
            float[] out = SparseTesting.roundTrip(c, g);
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
        int[] widths = widths(c.encode(g, 0, g.length), TensorLayout.flat(5000));
        long used = java.util.Arrays.stream(widths).sum();
        assertTrue(used <= (long) Math.ceil(5000 * 32 * 0.032), "used " + used);
    }

    @Test
    void sameStreamSameBitsAndSavedStateContinuesIdentically() throws IOException {
        JointSq a = jointsq(0.05, 4);
        JointSq b = jointsq(0.05, 4);
        float[] g = heavy(LAYOUT.size(), 5);
        assertArrayEquals(SparseTesting.roundTrip(a, g), SparseTesting.roundTrip(b, g));
        JointSq resumed = jointsq(0.05, 4);
        SparseTesting.restore(resumed, SparseTesting.save(a));
        for (int step = 0; step < 3; step++) {
            float[] next = heavy(LAYOUT.size(), 10 + step);
            assertArrayEquals(SparseTesting.roundTrip(a, next), SparseTesting.roundTrip(resumed, next));
        }
        assertArrayEquals(a.residual(), resumed.residual());
    }

    @Test
    void rateOutsideZeroToOneFailsNamingIt() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Compressors.create("jointsq", Map.of("rate", 0.0), 1));
        assertTrue(e.getMessage().startsWith("rate must be in (0, 1]"), e.getMessage());
    }
}
