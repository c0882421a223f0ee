package org.gridrun.engine.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.gridrun.engine.simd.Simd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ChainSums} adds in exactly the order it documents (and the kernels of {@code quantize.cu}, {@code sign.cu}
 * and {@code smaq.cu} follow): value {@code from + i} to chain {@code i mod 128}, then the tree of halves; chunks of
 * 8192 values, their partial sums summed the same way. Values of widely different magnitudes make every order of
 * additions round differently, so another order would not give the same bits.
 */
class ChainSumsTest {
    @AfterEach
    void restore() {
        Vectors.enabled = Simd.enabled();
    }

    /** The documented order of chains, written out plainly, of the squares of floats or of doubles as they are. */
    private static double reference(float[] g, int from, int to) {
        double[] d = new double[to - from];
        for (int i = from; i < to; i++) {
            d[i - from] = (double) g[i] * g[i];
        }
        return chains(d);
    }

    /** Gaussian values scaled by powers of two from 2^-20 to 2^19: every order of their additions rounds apart. */
    private static float[] wideMagnitudes(int n, long seed) {
        Random rng = new Random(seed);
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            g[i] = (float) rng.nextGaussian() * Math.scalb(1f, rng.nextInt(40) - 20);
        }
        return g;
    }

    private static double chains(double[] d) {
        double[] chains = new double[128];
        for (int i = 0; i < d.length; i++) {
            chains[i % 128] += d[i];
        }
        for (int h = 64; h > 0; h /= 2) {
            for (int j = 0; j < h; j++) {
                chains[j] = chains[j] + chains[j + h];
            }
        }
        return chains[0];
    }

    @Test
    void eachSidesSumIsItsOwnValuesInTheChainsOrder() {
        float[] g = wideMagnitudes(3000, 11);
        g[7] = -0f;
        g[8] = 0f;
        g[9] = -Float.MIN_VALUE;
        g[2500] = Float.NaN;
        for (int from : new int[] {0, 1, 37}) {
            for (int length : new int[] {0, 1, 129, 1000, 2400, 2963}) {
                double[] below = new double[length];
                double[] notBelow = new double[length];
                int count = 0;
                for (int i = 0; i < length; i++) {
                    float v = g[from + i];
                    // the chains of a side hold its own values where they stand, nothing elsewhere
                    if (v < 0f) {
                        below[i] = v;
                        count++;
                    } else {
                        notBelow[i] = v;
                    }
                }
                double[] sums = new double[2];
                String what = "from " + from + " length " + length;
                assertEquals(count, ChainSums.sides(g, from, from + length, sums), what);
                assertEquals(Double.doubleToRawLongBits(chains(notBelow)), Double.doubleToRawLongBits(sums[0]), what);
                assertEquals(Double.doubleToRawLongBits(chains(below)), Double.doubleToRawLongBits(sums[1]), what);
            }
        }
    }

    @Test
    void chainsAddInTheDocumentedOrderOnTheScalarAndVectorPaths() {
        float[] g = wideMagnitudes(5000, 3);
        int differsFromOneChain = 0;
        for (boolean vectors : new boolean[] {false, true}) {
            Vectors.enabled = vectors && Simd.enabled();
            for (int from : new int[] {0, 1, 37}) {
                for (int length : new int[] {0, 1, 127, 128, 129, 255, 1000, 4963}) {
                    double expected = reference(g, from, from + length);
                    assertEquals(Double.doubleToRawLongBits(expected),
                            Double.doubleToRawLongBits(ChainSums.chains(g, from, from + length, ChainSums.Term.SQUARE)),
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

    /** The chunked order, written out plainly: chunks of 8192 values, then chunks of their partials. */
    private static double chunked(double[] d) {
        if (d.length <= 8192) {
            return chains(d);
        }
        double[] partials = new double[(d.length + 8191) / 8192];
        for (int c = 0; c < partials.length; c++) {
            partials[c] = chains(java.util.Arrays.copyOfRange(d, c * 8192, Math.min(d.length, (c + 1) * 8192)));
        }
        return chunked(partials);
    }

    @Test
    void longSumsAddTheirChunksPartialsInTheChainsOrder() {
        Random rng = new Random(5);
        float[] g = new float[3 * 8192 + 77];
        for (int i = 0; i < g.length; i++) {
            g[i] = (float) rng.nextGaussian() * Math.scalb(1f, rng.nextInt(60) - 30);
        }
        for (boolean vectors : new boolean[] {false, true}) {
            Vectors.enabled = vectors && Simd.enabled();
            for (int length : new int[] {0, 1, 8192, 8193, 2 * 8192 + 5, g.length - 3}) {
                for (ChainSums.Term term : ChainSums.Term.values()) {
                    double[] d = new double[length];
                    for (int i = 0; i < length; i++) {
                        double a = g[3 + i];
                        d[i] = switch (term) {
                            case PLAIN -> a;
                            case ABS -> Math.abs(a);
                            case SQUARE -> a * a;
                        };
                    }
                    assertEquals(Double.doubleToRawLongBits(chunked(d)),
                            Double.doubleToRawLongBits(ChainSums.of(g, 3, 3 + length, term)),
                            term + " vectors " + Vectors.enabled + " length " + length);
                }
            }
        }
    }
}
