package org.gridrun.engine.compress;

import java.util.Arrays;

/**
 * Sums in double precision in an order that a CPU's vectors and a GPU's blocks of threads both follow at full speed,
 * so that the host and the device codecs write the same bits.
 *
 * <p>{@link #chains}: value {@code from + i} adds its term to chain {@code i mod} {@value #CHAINS}, each chain in
 * increasing order; then the chains meet in a fixed tree (chain {@code j} takes chain {@code j + h} for
 * {@code h} = 64, 32, …, 1, while {@code j < h}), and chain 0 is the sum. A level quantizer's bucket norm is that of
 * its bucket (one GPU block a bucket).
 *
 * <p>{@link #of}: a long vector is cut into chunks of {@value #CHUNK} values from its start; each chunk's
 * {@link #chains} is a partial sum, and the partials are summed the same way, chunked again while there are more than
 * {@value #CHUNK} of them (one GPU block a chunk, each level one launch). signSGD's scale and SmaQ's moments, and the
 * norm that gradient clipping scales to ({@link #sumOfSquares}).
 */
public final class ChainSums {
    /** Interleaved chains, as many as the GPU block's threads. */
    static final int CHAINS = 128;
    /** Values of one partial sum of {@link #of}. */
    static final int CHUNK = 8192;

    /** What a value adds. */
    enum Term { PLAIN, ABS, SQUARE }

    private static final ThreadLocal<double[]> CHAIN_SUMS = ThreadLocal.withInitial(() -> new double[CHAINS]);
    /** A second set of chains, for {@link #sides}. */
    private static final ThreadLocal<double[]> OTHER_CHAIN_SUMS = ThreadLocal.withInitial(() -> new double[CHAINS]);
    private static final ThreadLocal<double[][]> PARTIALS = ThreadLocal.withInitial(() -> new double[1][0]);

    private ChainSums() {
    }

    /** This thread's {@value #CHAINS} chain sums, zeroed, for a sum in the chains' order ({@link #tree} ends it). */
    static double[] zeroedChains() {
        double[] chains = CHAIN_SUMS.get();
        Arrays.fill(chains, 0);
        return chains;
    }

    /** The sum of {@code term} of {@code g[from … to)} in the chains' order. */
    static double chains(float[] g, int from, int to, Term term) {
        double[] chains = zeroedChains();
        int i = from;
        if (Vectors.enabled) {
            i = VectorMoments.chains(g, from, to, term, chains);
        }
        for (; i < to; i++) {
            double a = g[i];
            chains[(i - from) & (CHAINS - 1)] += switch (term) {
                case PLAIN -> a;
                case ABS -> Math.abs(a);
                case SQUARE -> a * a;
            };
        }
        return tree(chains);
    }

    /**
     * {@link #chains} of the values of {@code g[from … to)} on each side of zero, in one pass: {@code sums[0]} those
     * not below zero (±0, positive and NaN), {@code sums[1]} those below (1-bit SGD's side means). Returns how many
     * are below zero. A value adds to its side's chain, and −0 to the other side's, which leaves any sum as it is:
     * the side is chosen by a mask, not a branch that random signs would mispredict every other time.
     */
    static int sides(float[] g, int from, int to, double[] sums) {
        double[] below = zeroedChains();
        double[] notBelow = OTHER_CHAIN_SUMS.get();
        Arrays.fill(notBelow, 0);
        int count = 0;
        for (int i = from; i < to; i++) {
            int bits = Float.floatToRawIntBits(g[i]);
            int negative = -(g[i] < 0f ? 1 : 0);
            int k = (i - from) & (CHAINS - 1);
            below[k] += Float.intBitsToFloat(bits & negative | ~negative & 0x80000000);
            notBelow[k] += Float.intBitsToFloat(bits & ~negative | negative & 0x80000000);
            count -= negative;
        }
        sums[1] = tree(below);
        sums[0] = tree(notBelow);
        return count;
    }

    /** {@link #chains} of {@code (g[i] − mean)²} in double: a variance's sum of squares (TernGrad's clip). */
    static double deviationSquares(float[] g, int from, int to, double mean) {
        double[] chains = zeroedChains();
        for (int i = from; i < to; i++) {
            double d = g[i] - mean;
            chains[(i - from) & (CHAINS - 1)] += d * d;
        }
        return tree(chains);
    }

    /** {@link #chains} of {@code v²} of each value clamped to {@code [−bound, bound]} (TernGrad's clipped norm). */
    static double clampedSquares(float[] g, int from, int to, float bound) {
        double[] chains = zeroedChains();
        for (int i = from; i < to; i++) {
            double v = LevelQuantizer.clamp(g[i], bound);
            chains[(i - from) & (CHAINS - 1)] += v * v;
        }
        return tree(chains);
    }

    /**
     * The sum of the squares of {@code g[from … to)} in double, chunked (see the class comment): gradient clipping's
     * squared norm, which the CUDA backend sums in the same order.
     */
    public static double sumOfSquares(float[] g, int from, int to) {
        return of(g, from, to, Term.SQUARE);
    }

    /** The sum of {@code term} of {@code g[from … to)}, chunked (see the class comment). */
    static double of(float[] g, int from, int to, Term term) {
        int n = to - from;
        if (n <= CHUNK) {
            return chains(g, from, to, term);
        }
        int count = (n + CHUNK - 1) / CHUNK;
        double[][] holder = PARTIALS.get();
        if (holder[0].length < count) {
            holder[0] = new double[count];
        }
        double[] partials = holder[0];
        for (int c = 0; c < count; c++) {
            int start = from + c * CHUNK;
            partials[c] = chains(g, start, Math.min(to, start + CHUNK), term);
        }
        while (count > CHUNK) {
            int next = (count + CHUNK - 1) / CHUNK;
            for (int c = 0; c < next; c++) {
                partials[c] = chains(partials, c * CHUNK, Math.min(count, (c + 1) * CHUNK));
            }
            count = next;
        }
        return chains(partials, 0, count);
    }

    /** {@link #chains} of doubles {@code p[from … to)}, their plain sum (partials read before they are written). */
    private static double chains(double[] p, int from, int to) {
        double[] chains = zeroedChains();
        for (int i = from; i < to; i++) {
            chains[(i - from) & (CHAINS - 1)] += p[i];
        }
        return tree(chains);
    }

    /** The chains meeting in the fixed tree of halves; the sum, in chain 0. */
    static double tree(double[] chains) {
        for (int h = CHAINS / 2; h > 0; h >>= 1) {
            for (int j = 0; j < h; j++) {
                chains[j] += chains[j + h];
            }
        }
        return chains[0];
    }
}
