package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.gridrun.engine.simd.Simd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Moments#chainSquares} adds in exactly the order it documents (and {@code quantize.cu}'s bucket norms
 * follow): value {@code from + i} to chain {@code i mod 128}, then the tree of halves. Values of widely different
 * magnitudes make every order of additions round differently, so another order would not give the same bits.
 */
class MomentsTest {
    @AfterEach
    void restore() {
        Vectors.enabled = Simd.enabled();
    }

    /** The documented order, written out plainly. */
    private static double reference(float[] g, int from, int to) {
        double[] chains = new double[128];
        for (int i = from; i < to; i++) {
            chains[(i - from) % 128] += (double) g[i] * g[i];
        }
        for (int h = 64; h > 0; h /= 2) {
            for (int j = 0; j < h; j++) {
                chains[j] = chains[j] + chains[j + h];
            }
        }
        return chains[0];
    }

    @Test
    void chainSquaresAddsInTheDocumentedOrderOnTheScalarAndVectorPaths() {
        Random rng = new Random(3);
        float[] g = new float[5000];
        for (int i = 0; i < g.length; i++) {
            g[i] = (float) rng.nextGaussian() * Math.scalb(1f, rng.nextInt(40) - 20);
        }
        int differsFromOneChain = 0;
        for (boolean vectors : new boolean[] {false, true}) {
            Vectors.enabled = vectors && Simd.enabled();
            for (int from : new int[] {0, 1, 37}) {
                for (int length : new int[] {0, 1, 127, 128, 129, 255, 1000, 4963}) {
                    double expected = reference(g, from, from + length);
                    assertEquals(Double.doubleToRawLongBits(expected),
                            Double.doubleToRawLongBits(Moments.chainSquares(g, from, from + length)),
                            "vectors " + Vectors.enabled + " from " + from + " length " + length);
                    double sequential = 0;
                    for (int i = from; i < from + length; i++) {
                        sequential += (double) g[i] * g[i];
                    }
                    differsFromOneChain += sequential != expected ? 1 : 0;
                }
            }
        }
        assertTrue(differsFromOneChain > 4, "the data tell the orders apart only " + differsFromOneChain + " times");
    }
}
