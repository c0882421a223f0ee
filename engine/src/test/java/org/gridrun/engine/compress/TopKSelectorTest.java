package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The selection of long vectors against a full sort, both ways it can go: among the values that reach a bound taken
 * from a sample, and over the whole vector where the sample misleads (fewer than k reach the bound, or far more).
 */
class TopKSelectorTest {
    private static final int N = 200_000;
    /** The distance between sampled positions for {@link #N} values. */
    private static final int STEP = N / TopKSelector.SAMPLE;

    /** The oracle: positions by key (larger first, any NaN above infinity), then position; the first k, ascending. */
    private static int[] expected(float[] g, int k) {
        return IntStream.range(0, g.length).boxed()
                .sorted(Comparator.<Integer>comparingInt(i -> -TopKSelector.key(g[i])).thenComparing(i -> i))
                .limit(k).mapToInt(Integer::intValue).sorted().toArray();
    }

    /** Selects k of g[3 … 3 + N) and compares with the oracle, and which way the selection went. */
    private static void check(float[] g, int k, boolean sampled, String what) {
        TopKSelector selector = new TopKSelector();
        int[] got = Arrays.copyOf(selector.select(g, 3, N, k), k);
        assertArrayEquals(expected(Arrays.copyOfRange(g, 3, 3 + N), k), got, what);
        assertEquals(sampled, selector.sampledLast(), what + ": selected among the values reaching the sampled bound");
    }

    @Test
    void aLongGaussianVectorIsSelectedAmongTheValuesReachingTheSampledBound() {
        float[] g = TestGradients.gaussian(N + 3, 5);
        g[1234] = Float.NaN;
        g[99_999] = Float.NEGATIVE_INFINITY;
        for (int k : new int[] {1, 20, 2000, N / TopKSelector.SAMPLED_SHARE}) {
            check(g, k, true, "k " + k);
        }
    }

    @Test
    void tiesAtTheKthMagnitudeKeepTheLowestPositions() {
        float[] g = TestGradients.gaussian(N + 3, 6);
        int k = 2000;
        float[] magnitudes = new float[N];
        for (int i = 0; i < N; i++) {
            magnitudes[i] = Math.abs(g[3 + i]);
        }
        Arrays.sort(magnitudes);
        float kth = magnitudes[N - k];
        for (int j = 0; j < 40; j++) {
            g[3 + 4999 * j + 7] = j % 2 == 0 ? kth : -kth;
        }
        check(g, k, true, "40 more values of the k-th magnitude " + kth);
    }

    @Test
    void theKthLargestMagnitudeIsWhatASortOfTheMagnitudesHoldsThere() {
        float[] g = TestGradients.gaussian(5000, 9);
        g[10] = -0f;
        g[11] = Float.NEGATIVE_INFINITY;
        g[12] = Float.NaN;
        g[13] = Float.intBitsToFloat(0xFFC00001);
        g[14] = 0f;
        float[] magnitudes = new float[g.length];
        for (int i = 0; i < g.length; i++) {
            magnitudes[i] = Math.abs(g[i]);
        }
        Arrays.sort(magnitudes);
        TopKSelector selector = new TopKSelector();
        for (int k : new int[] {1, 2, 3, 4, 50, 4999, 5000}) {
            float sorted = magnitudes[g.length - k];
            float kth = selector.kthLargestMagnitude(g, 0, g.length, k);
            assertEquals(Float.isNaN(sorted) ? "NaN" : Float.toString(sorted), Float.isNaN(kth) ? "NaN"
                    : Float.toString(kth), "k " + k);
        }
    }

    @Test
    void aSampleThatSawOnlyTheLargestValuesFallsBackToTheWholeVector() {
        // the sampled positions hold the largest values, each its own, so fewer than k reach the sample's bound
        float[] g = TestGradients.gaussian(N + 3, 7);
        for (int s = 0; s < TopKSelector.SAMPLE; s++) {
            g[3 + s * STEP] = 1000f + s;
        }
        check(g, 100, false, "large values at the sampled positions");
    }

    @Test
    void farMoreValuesReachingTheBoundThanKeptFallsBackToTheWholeVector() {
        // zeros wherever the sample looks: every value reaches its bound of 0
        float[] g = new float[N + 3];
        for (int j = 0; j < 100; j++) {
            g[3 + j * STEP + 1] = j - 50.5f;
        }
        check(g, 500, false, "100 values off the sampled positions, zeros elsewhere");
    }
}
