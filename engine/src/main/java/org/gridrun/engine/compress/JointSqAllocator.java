package org.gridrun.engine.compress;

import java.util.Arrays;
import org.gridrun.engine.random.CounterRng;

/**
 * The JointSQ paper's per-tensor bit allocation ({@code allocation: knapsack}): a greedy multiple-choice knapsack
 * giving each value 0, 2, 4 or 8 bits, each width counted at its nominal bits as the paper counts them.
 *
 * <p>A value of normalised magnitude {@code a = |c|/‖c‖∞} offers three upgrade items: 0→2 bits (weight 2, value
 * {@code a²·15/32}), 2→4 (weight 2, value {@code a²·15/512}) and 4→8 (weight 4, value
 * {@code a²·(1/256 − 1/65536)/4}). Their densities (value per bit) fall from one item to the next for every
 * {@code a}, so taking all items of density at least {@code τ} always takes a value's items in order, and the widths
 * grow with {@code |c|}. The budget is per tensor, so the normalisation by {@code ‖c‖∞} does not change the order;
 * it only keeps {@code τ} on one scale across tensors and steps.
 *
 * <p>{@code τ} is first read off a sample of {@code max(1, ceil(sample_ratio·n))} positions (the worker's stream, drawn
 * for every tensor, also one that sends nothing, so a device's plan draws the same): the density at which the
 * sample's items, weighted by {@code n/s}, fill the budget (their bits summed as integers, then scaled). It is then adapted, at most 10
 * times, by bracketing until the full tensor's bits land within 0.8–1.3× the budget. If the result is over the
 * budget, the chosen items are sorted by density and cut at the budget, so the nominal value bits never exceed it;
 * {@link JointSq} sends a 2-bit value in 7/3 bits. The items' values assume an error relative to each value's own
 * magnitude, which the L∞ group scales do not give; {@link JointSqSearch}, the default, sees the coupling.
 */
final class JointSqAllocator {
    static final int ADAPTATIONS = 10;
    private static final float D1 = 15f / 64;
    private static final float D2 = 15f / 1024;
    private static final float D3 = (float) ((1.0 / 256 - 1.0 / 65536) / 16);

    private final double sampleRatio;
    private final CounterRng rng;
    private long[] sample = new long[0];
    private int[] positions = new int[0];
    private long[] items = new long[0];

    JointSqAllocator(double sampleRatio, CounterRng rng) {
        this.sampleRatio = sampleRatio;
        this.rng = rng;
    }

    /**
     * Writes the width (0, 2, 4 or 8) of each of {@code c[from … from + n)} into {@code widths[from…]}; returns the
     * value bits, at most {@code budget}.
     */
    long allocate(float[] c, int from, int n, float linf, long budget, byte[] widths) {
        int[] positions = samplePositions(n);
        if (!(linf > 0) || !Float.isFinite(linf)) {
            Arrays.fill(widths, from, from + n, (byte) 0);
            return 0;
        }
        float inverse = 1f / linf;
        float tau = sampledThreshold(c, from, n, positions, inverse, budget);
        long bits = assign(c, from, n, inverse, tau, widths);
        float lo = 0;
        float hi = Float.POSITIVE_INFINITY;
        for (int round = 0; round < ADAPTATIONS && (bits > 1.3 * budget || bits < 0.8 * budget && tau > 0); round++) {
            if (bits > budget) {
                lo = tau;
                tau = hi < Float.POSITIVE_INFINITY ? (float) Math.sqrt((double) lo * hi) : Math.max(tau * 4, 1e-30f);
            } else {
                hi = tau;
                tau = lo > 0 ? (float) Math.sqrt((double) lo * hi) : tau / 4;
            }
            bits = assign(c, from, n, inverse, tau, widths);
        }
        return bits > budget ? cut(c, from, n, inverse, budget, widths) : bits;
    }

    private static float square(float[] c, int i, float inverse) {
        float a = Math.abs(c[i]) * inverse;
        return a * a;
    }

    /**
     * The width of a value of squared normalised magnitude {@code a2} at threshold {@code tau}: the items whose
     * density reaches {@code tau}, counted without branches (the densities fall from item to item, so the items taken
     * are always a prefix).
     */
    static int width(float a2, float tau) {
        int w = (a2 * D1 >= tau ? 2 : 0) + (a2 * D2 >= tau ? 2 : 0) + (a2 * D3 >= tau ? 4 : 0);
        return a2 > 0 ? w : 0;
    }

    /** The sample's size for a tensor of {@code n} values: {@code max(1, ceil(sample_ratio·n))}, at most {@code n}. */
    static int sampleSize(double sampleRatio, int n) {
        return (int) Math.min(n, Math.max(1, (long) Math.ceil(sampleRatio * n)));
    }

    /**
     * Draws the sample's positions in a tensor of {@code n} values from the worker's stream, whatever its values (so
     * that a plan for a device draws them as {@link #allocate} does).
     */
    int[] samplePositions(int n) {
        int s = sampleSize(sampleRatio, n);
        if (positions.length < s) {
            positions = new int[s];
        }
        for (int j = 0; j < s; j++) {
            positions[j] = rng.nextInt(n);
        }
        return positions;
    }

    /**
     * The density at which the sample's items, weighted by {@code n/s}, fill the budget: the first item, largest
     * density first, at which {@code (n/s)·W} exceeds it, {@code W} the items' bits so far (an integer, so the sum does
     * not depend on an order of additions); 0 when none does.
     */
    private float sampledThreshold(float[] c, int from, int n, int[] positions, float inverse, long budget) {
        int s = sampleSize(sampleRatio, n);
        if (sample.length < 3 * s) {
            sample = new long[3 * s];
        }
        for (int j = 0; j < s; j++) {
            float a2 = square(c, from + positions[j], inverse);
            sample[3 * j] = item(a2 * D1, 2);
            sample[3 * j + 1] = item(a2 * D2, 2);
            sample[3 * j + 2] = item(a2 * D3, 4);
        }
        Arrays.sort(sample, 0, 3 * s);
        double scale = (double) n / s;
        long used = 0;
        for (int j = 3 * s - 1; j >= 0 && sample[j] >>> 32 != 0; j--) {
            used += (int) sample[j];
            if (scale * used > budget) {
                return Float.intBitsToFloat((int) (sample[j] >>> 32));
            }
        }
        return 0f;
    }

    /** A sortable item: the density's bits (non-negative, so ordered as the density) above its weight or position. */
    private static long item(float density, long low) {
        return (long) Float.floatToIntBits(density) << 32 | low;
    }

    private static long assign(float[] c, int from, int n, float inverse, float tau, byte[] widths) {
        long bits = 0;
        for (int i = from; i < from + n; i++) {
            int w = width(square(c, i, inverse), tau);
            widths[i] = (byte) w;
            bits += w;
        }
        return bits;
    }

    /** Sorts the chosen items by density and keeps them while they fit; returns the value bits. */
    private long cut(float[] c, int from, int n, float inverse, long budget, byte[] widths) {
        if (items.length < 3 * n) {
            items = new long[3 * n];
        }
        int count = 0;
        for (int i = from; i < from + n; i++) {
            float a2 = square(c, i, inverse);
            int w = widths[i];
            long position = 0xFFFFFFFFL - (i - from);
            if (w >= 2) {
                items[count++] = item(a2 * D1, position);
            }
            if (w >= 4) {
                items[count++] = item(a2 * D2, position);
            }
            if (w == 8) {
                items[count++] = item(a2 * D3, position);
            }
            widths[i] = 0;
        }
        Arrays.sort(items, 0, count);
        long bits = 0;
        for (int j = count - 1; j >= 0; j--) {
            int i = from + (int) (0xFFFFFFFFL - (items[j] & 0xFFFFFFFFL));
            int step = widths[i] == 4 ? 4 : 2;
            if (bits + step > budget) {
                break;
            }
            widths[i] = (byte) (widths[i] + step);
            bits += step;
        }
        return bits;
    }
}
