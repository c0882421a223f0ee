package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

class PowerSgdTest {
    /** A 40×30 weight (compressed at rank 2: 3.4 times smaller), its 40 biases and a 3×3 weight (sent raw). */
    private static final TensorLayout LAYOUT = TensorLayout.of(List.of("w", "b", "small"),
            List.of(new int[] {40, 30}, new int[] {40}, new int[] {3, 3}));
    private static final int N = LAYOUT.size();
    private static final int WEIGHT = 40 * 30;

    private static PowerSgd[] group(int workers, Map<String, Object> params, long seed) {
        Compressor prototype = Compressors.create("powersgd", params, seed);
        PowerSgd[] group = new PowerSgd[workers];
        for (int w = 0; w < workers; w++) {
            group[w] = (PowerSgd) prototype.copy(100 + w);
            group[w].bind(LAYOUT);
        }
        return group;
    }

    private static float[][] gradients(int workers, long seed) {
        float[][] g = new float[workers][];
        for (int w = 0; w < workers; w++) {
            g[w] = TestGradients.gaussian(N, seed * 31 + w);
        }
        return g;
    }

    private static float[] step(PowerSgd[] group, float[][] g) {
        float[] out = new float[g[0].length];
        group[0].step(group, g, out);
        return out;
    }

    /** {@code ||a − b|| / ||b||} over {@code [from, to)}. */
    private static double relativeError(float[] a, float[] b, int from, int to) {
        double diff = 0;
        double norm = 0;
        for (int i = from; i < to; i++) {
            diff += (double) (a[i] - b[i]) * (a[i] - b[i]);
            norm += (double) b[i] * b[i];
        }
        return Math.sqrt(diff / norm);
    }

    /** A rows×cols matrix of rank {@code rank}: the sum of {@code rank} random outer products. */
    private static float[] lowRank(int rows, int cols, int rank, long seed) {
        Random random = new Random(seed);
        float[] m = new float[rows * cols];
        for (int k = 0; k < rank; k++) {
            double[] u = random.doubles(rows).map(x -> x - 0.5).toArray();
            double[] v = random.doubles(cols).map(x -> x - 0.5).toArray();
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    m[i * cols + j] += (float) (u[i] * v[j]);
                }
            }
        }
        return m;
    }

    /** Steps {@code group} and checks that each worker keeps its gradient plus old residual minus the output. */
    private static float[] stepKeepingResiduals(PowerSgd[] group, float[][] g, int t) {
        float[][] original = new float[group.length][N];
        for (int w = 0; w < group.length; w++) {
            for (int i = 0; i < N; i++) {
                original[w][i] = g[w][i] + (t == 0 ? 0f : group[w].residual()[i]);
            }
        }
        float[] out = step(group, g);
        for (int w = 0; w < group.length; w++) {
            for (int i = 0; i < WEIGHT; i++) {
                assertEquals(original[w][i] - out[i], group[w].residual()[i], 1e-5, "worker " + w + ", " + i);
            }
        }
        return out;
    }

    @Test
    void oneWorkersGradientPlusResidualIsOutputPlusNewResidual() {
        PowerSgd c = group(1, Map.of(), 5)[0];
        for (int t = 0; t < 5; t++) {
            float[] g = TestGradients.gaussian(N, t);
            float[] original = new float[N];
            for (int i = 0; i < N; i++) {
                original[i] = g[i] + (t == 0 ? 0f : c.residual()[i]);
            }
            float[] out = step(new PowerSgd[] {c}, new float[][] {g});
            for (int i = 0; i < N; i++) {
                assertEquals(original[i], out[i] + c.residual()[i], 1e-5, "step " + t + ", value " + i);
            }
            assertTrue(relativeError(out, original, 0, WEIGHT) > 0.1, "the weight is compressed, not sent");
            assertArrayEquals(java.util.Arrays.copyOfRange(original, WEIGHT, N),
                    java.util.Arrays.copyOfRange(out, WEIGHT, N), "raw tensors exact");
        }
    }

    /** Without error feedback each step approximates its own gradient: nothing of the step before is added. */
    @Test
    void withoutTheResidualEachStepApproximatesItsGradientAlone() {
        PowerSgd c = group(1, Map.of(PowerSgd.KEEP_RESIDUAL, false), 5)[0];
        assertEquals(false, c.config().get(PowerSgd.KEEP_RESIDUAL));
        for (int t = 0; t < 3; t++) {
            float[] g = TestGradients.gaussian(N, t);
            float[] out = step(new PowerSgd[] {c}, new float[][] {g});
            for (int i = 0; i < N; i++) {
                assertEquals(g[i], out[i] + c.residual()[i], 1e-5, "step " + t + ", value " + i);
            }
            assertTrue(relativeError(out, g, 0, WEIGHT) > 0.1, "the weight is compressed, not sent");
        }
    }

    @Test
    void eachOfThreeWorkersKeepsItsOwnMinusTheSharedOutput() {
        PowerSgd[] group = group(3, Map.of(), 5);
        for (int t = 0; t < 4; t++) {
            float[][] g = gradients(3, t);
            float[] out = stepKeepingResiduals(group, g, t);
            for (int w = 0; w < 3; w++) {
                for (int i = WEIGHT; i < N; i++) {
                    assertEquals(0f, group[w].residual()[i], "raw tensors leave no residual");
                }
            }
            for (int i = WEIGHT; i < N; i++) {
                assertEquals((g[0][i] + g[1][i] + g[2][i]) / 3, out[i], 1e-6, "raw tensors are averaged");
            }
        }
    }

    @Test
    void aGradientOfRankAtMostRIsReproducedInOneStep() {
        int[][] cases = {{2, 2}, {1, 2}, {4, 4}, {3, 4}};
        for (int[] c : cases) {
            int gradientRank = c[0];
            float[] m = lowRank(40, 30, gradientRank, 11 + gradientRank);
            PowerSgd[] group = group(3, Map.of("rank", (long) c[1], "min_compression_rate", 1.0), 9);
            float[][] g = new float[3][N];
            for (float[] gw : g) {
                System.arraycopy(m, 0, gw, 0, WEIGHT);
            }
            float[] out = step(group, g);
            double error = relativeError(out, g[0], 0, WEIGHT);
            assertTrue(error < 1e-4, "rank " + c[1] + " on a rank-" + gradientRank + " gradient: error " + error);
        }
    }

    @Test
    void gramSchmidtAndHouseholderGiveOrthonormalColumns() {
        int rows = 50;
        for (int r : new int[] {1, 2, 4, 6}) {
            float[] p = TestGradients.gaussian(rows * r, r);
            if (r == 6) {
                System.arraycopy(p, 0, p, 5 * rows, rows);  // dependent columns: Householder still orthonormal
            }
            new Orthonormalizer().apply(p, rows, r);
            assertOrthonormal(p, rows, r);
        }
        float[] p = TestGradients.gaussian(rows * 4, 3);
        Orthonormalizer.gramSchmidt(p, rows, 4);
        assertOrthonormal(p, rows, 4);
    }

    private static void assertOrthonormal(float[] p, int rows, int r) {
        for (int a = 0; a < r; a++) {
            for (int b = 0; b < r; b++) {
                double dot = 0;
                for (int i = 0; i < rows; i++) {
                    dot += (double) p[a * rows + i] * p[b * rows + i];
                }
                assertEquals(a == b ? 1 : 0, dot, 1e-5, "rank " + r + ", PᵀP[" + a + "][" + b + "]");
            }
        }
    }

    @Test
    void vectorsAndSmallMatricesGoRawAndExact() {
        PowerSgd c = group(1, Map.of(), 1)[0];
        float[] g = TestGradients.gaussian(N, 4);
        Payload p = c.encode(g, 0, N);
        float[] out = new float[N];
        c.decode(p, out, 0);
        for (int i = WEIGHT; i < N; i++) {
            assertEquals(g[i], out[i], "value " + i);
        }
        PowerSgd unbound = (PowerSgd) Compressors.create("powersgd", Map.of(), 1).copy(0);
        assertArrayEquals(g, TestGradients.roundTrip(unbound, g), "an unbound gradient is one vector: raw");
        assertEquals(32L * N, unbound.sentBits());
    }

    @Test
    void theFirstStartAfterStepsAreExactAverages() {
        PowerSgd[] group = group(3, Map.of("start_after", 2L), 1);
        for (int t = 0; t < 3; t++) {
            float[][] g = gradients(3, t);
            float[] out = step(group, g);
            double error = 0;
            for (int i = 0; i < N; i++) {
                error = Math.max(error, Math.abs(out[i] - ((double) g[0][i] + g[1][i] + g[2][i]) / 3));
            }
            if (t < 2) {
                assertTrue(error < 1e-6, "step " + t + " differs from the mean by " + error);
                assertEquals(32L * N, group[1].sentBits());
            } else {
                assertTrue(error > 0.1, "step " + t + " is compressed");
                assertTrue(group[1].sentBits() < 32L * N);
            }
        }
    }

    @Test
    void aSecondIterationPerStepApproximatesBetter() {
        float[][] g = gradients(1, 8);
        double[] errors = new double[2];
        for (int iterations = 1; iterations <= 2; iterations++) {
            float[] out = step(group(1, Map.of("iters_per_step", (long) iterations), 3), g);
            errors[iterations - 1] = relativeError(out, g[0], 0, WEIGHT);
        }
        assertTrue(errors[1] < 0.97 * errors[0], "1 iteration: " + errors[0] + ", 2: " + errors[1]);
    }

    @Test
    void bitsCountBothFactorsOfEveryIterationAndTheRawTensors() {
        int raw = 40 + 9;
        int factors = (40 + 30) * 2;
        for (int iterations = 1; iterations <= 3; iterations++) {
            Map<String, Object> params = Map.of("iters_per_step", (long) iterations);
            PowerSgd c = group(1, params, 2)[0];
            Payload p = c.encode(TestGradients.gaussian(N, 1), 0, N);
            long bits = 32L * (raw + (long) iterations * factors);
            assertEquals(bits, p.bits());
            assertEquals(bits, 8L * p.bytes().length);
            assertEquals(bits, c.sentBits());
            PowerSgd[] group = group(3, params, 2);
            step(group, gradients(3, 1));
            for (PowerSgd w : group) {
                assertEquals(bits, w.sentBits());
                assertEquals(bits / 8, w.sentBytes());
            }
        }
    }

    @Test
    void encodeAndDecodeAreTheStepOfOneWorker() {
        PowerSgd encoder = group(1, Map.of("iters_per_step", 2L), 6)[0];
        PowerSgd stepper = group(1, Map.of("iters_per_step", 2L), 6)[0];
        for (int t = 0; t < 3; t++) {
            float[] g = TestGradients.gaussian(N, t);
            float[] decoded = TestGradients.roundTrip(encoder, g);
            float[] out = step(new PowerSgd[] {stepper}, new float[][] {g});
            assertArrayEquals(out, decoded, 1e-6f, "step " + t);
            assertArrayEquals(stepper.residual(), encoder.residual(), "step " + t);
        }
    }

    @Test
    void theAlternatingVariantSendsQThenPWarmStartedAndKeepsEachWorkersResidual() {
        Map<String, Object> alternating = Map.of("variant", "alternating");
        PowerSgd[] group = group(3, alternating, 5);
        int raw = 40 + 9;
        for (int t = 0; t < 4; t++) {
            float[][] g = gradients(3, t);
            float[] out = stepKeepingResiduals(group, g, t);
            for (int w = 0; w < 3; w++) {
                assertEquals(32L * (raw + (t % 2 == 0 ? 30 : 40) * 2), group[w].sentBits(),
                        "step " + t + " sends " + (t % 2 == 0 ? "Q (30×2)" : "P (40×2)") + " and the raw tensors, "
                                + "Q first as in the authors' package");
            }
        }
        PowerSgd[] twice = group(3, Map.of("variant", "alternating", "iters_per_step", 2L), 5);
        for (int t = 0; t < 3; t++) {
            stepKeepingResiduals(twice, gradients(3, t), t);
            assertEquals(32L * (raw + (30 + 40) * 2), twice[0].sentBits(), "two half iterations send Q and P");
        }
        float[][] g = gradients(3, 9);
        assertFalse(java.util.Arrays.equals(step(group(3, Map.of(), 5), g), step(group(3, alternating, 5), g)),
                "the paper's step differs");
    }

    @Test
    void alternatingEncodeAndDecodeAreTheStepOfOneWorkerAndResumeBitForBit() throws IOException {
        for (long iterations = 1; iterations <= 3; iterations++) {
            alternatingEncodeAndDecodeAreTheStepOfOneWorker(Map.of("variant", "alternating", "start_after", 1L,
                    "iters_per_step", iterations));
        }
    }

    private void alternatingEncodeAndDecodeAreTheStepOfOneWorker(Map<String, Object> alternating) throws IOException {
        PowerSgd encoder = group(1, alternating, 6)[0];
        PowerSgd stepper = group(1, alternating, 6)[0];
        for (int t = 0; t < 4; t++) {
            float[] g = TestGradients.gaussian(N, t);
            float[] decoded = TestGradients.roundTrip(encoder, g);
            float[] out = step(new PowerSgd[] {stepper}, new float[][] {g});
            assertArrayEquals(out, decoded, 1e-6f, "step " + t);
            assertArrayEquals(stepper.residual(), encoder.residual(), "step " + t);
        }
        PowerSgd resumed = group(1, alternating, 6)[0];
        SparseTesting.restore(resumed, SparseTesting.save(stepper));
        for (int t = 4; t < 7; t++) {
            float[][] g = {TestGradients.gaussian(N, t)};
            assertArrayEquals(step(new PowerSgd[] {stepper}, g), step(new PowerSgd[] {resumed}, g), "step " + t);
        }
    }

    @Test
    void aSeedDeterminesTheSteps() {
        float[][] g = gradients(2, 3);
        float[] first = step(group(2, Map.of(), 4), g);
        assertArrayEquals(first, step(group(2, Map.of(), 4), g));
        assertFalse(java.util.Arrays.equals(first, step(group(2, Map.of(), 5), g)), "another seed, another Q");
    }

    @Test
    void copyAndResetStartAfresh() {
        PowerSgd c = group(1, Map.of(), 4)[0];
        float[] g = TestGradients.gaussian(N, 1);
        float[] first = TestGradients.roundTrip(c, g);
        TestGradients.roundTrip(c, g);
        PowerSgd copy = (PowerSgd) c.copy(100);
        copy.bind(LAYOUT);
        assertArrayEquals(first, TestGradients.roundTrip(copy, g));
        c.reset();
        assertArrayEquals(first, TestGradients.roundTrip(c, g));
    }

    @Test
    void aRestoredGroupContinuesBitForBit() throws IOException {
        PowerSgd[] group = group(2, Map.of("iters_per_step", 2L, "start_after", 1L), 3);
        for (int t = 0; t < 3; t++) {
            step(group, gradients(2, t));
        }
        PowerSgd[] resumed = group(2, Map.of("iters_per_step", 2L, "start_after", 1L), 3);
        for (int w = 0; w < 2; w++) {
            SparseTesting.restore(resumed[w], SparseTesting.save(group[w]));
        }
        for (int t = 3; t < 6; t++) {
            float[][] g = gradients(2, t);
            assertArrayEquals(step(group, g), step(resumed, g), "step " + t);
            assertArrayEquals(group[1].residual(), resumed[1].residual(), "step " + t);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SparseTesting.restore(resumed[0], SparseTesting.save(group[1])));
        assertEquals("saved PowerSGD state is of worker stream 101; this instance has stream 100", e.getMessage());
    }

    @Test
    void aStepNeedsTheWholeGroup() {
        PowerSgd[] group = group(2, Map.of(), 3);
        PowerSgd stranger = group(1, Map.of("rank", 3L), 3)[0];
        assertThrows(IllegalArgumentException.class, () -> group[0].step(new PowerSgd[] {group[0], stranger},
                gradients(2, 1), new float[N]));
        assertThrows(IllegalArgumentException.class, () -> stranger.step(group, gradients(2, 1), new float[N]));
    }

    @Test
    void badParametersFailNamingThem() {
        Map<String, String> expected = Map.of(
                "rank", "rank must be at least 1, found 0",
                "iters_per_step", "iters_per_step must be at least 1, found 0",
                "start_after", "start_after must not be negative, found -1",
                "min_compression_rate", "min_compression_rate must be at least 1, found 0.5");
        Map<String, Object> values = Map.of("rank", 0L, "iters_per_step", 0L, "start_after", -1L,
                "min_compression_rate", 0.5);
        for (String name : expected.keySet()) {
            Map<String, Object> params = new HashMap<>();
            params.put(name, values.get(name));
            ConfigException e = assertThrows(ConfigException.class, () -> Compressors.create("powersgd", params, 1));
            assertEquals(expected.get(name), e.getMessage());
        }
        assertEquals("variant must be paper or alternating, found power", assertThrows(ConfigException.class,
                () -> Compressors.create("powersgd", Map.of("variant", "power"), 1)).getMessage());
    }

    @Test
    void isRegisteredAndKeepsItsOwnErrorFeedback() {
        CompressorProvider provider = Compressors.provider("powersgd");
        assertTrue(provider.summary().contains("Vogels"), provider.summary());
        assertEquals(Aggregation.ALL_REDUCE, provider.aggregation());
        assertEquals(List.of("rank", "min_compression_rate", "start_after", "iters_per_step", "variant",
                "keep_residual"),
                provider.parameters().stream().map(k -> k.name()).toList());
        Compressor c = Compressors.create("powersgd", Map.of(ErrorFeedback.PARAMETER, true), 1);
        assertInstanceOf(PowerSgd.class, c, "never wrapped in ErrorFeedback");
        assertEquals(Map.of("rank", 2L, "min_compression_rate", 2.0, "start_after", 0L, "iters_per_step", 1L,
                "variant", "paper", PowerSgd.KEEP_RESIDUAL, true, ErrorFeedback.PARAMETER, true), c.config());
    }
}
