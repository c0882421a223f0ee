package org.gridrun.engine.compress;

import java.util.Arrays;

/**
 * JointSQ's default bit allocation: the widths 0, 2, 4 and 8 go to magnitude classes whose boundaries are searched
 * for the lowest expected error within the tensor's value-bit budget.
 *
 * <p>Wider codes always go to larger magnitudes, so an allocation is three counts: the {@code K8} largest values get
 * 8 bits, the next {@code K4} get 4, the next {@code K2} get 2, the rest 0. The expected squared error of one is
 * what stochastic rounding adds in each group plus the energy of what is not sent; a group's levels are scaled by
 * its largest magnitude ({@link JointSq}'s L∞ groups), so taking the largest values out of the 4-bit group into the
 * 8-bit one makes every 4-bit step finer. That coupling is what the paper's knapsack ({@link JointSqAllocator}),
 * whose item values assume an error relative to each value's own magnitude, does not see: on real layer gradients the
 * search halves its error at the same value bits.
 *
 * <p>The search runs on a histogram of the magnitudes, 16 bins per octave (a float's exponent and top four mantissa
 * bits), each bin's values taken at its middle: the errors of a group's cells are differences of prefix sums of the
 * bins' counts, magnitudes and squares. For {@code K8} and {@code K4} at bin boundaries (a coarse grid, then every
 * boundary near the best), {@code K2} is the most the remaining bits pay for; the best triple wins. The values are
 * then assigned in one pass by their bins, the bin where the 2-bit group ends giving its first values (in position
 * order) 2 bits, so the counts, and the value bits {@code 8·K8 + 4·K4 + packed(K2)} (see
 * {@link JointSq#packedBits}), are exactly those planned, never over the budget. Zeros and subnormals below
 * {@code 2^-122} are never sent. No randomness is used.
 *
 * <p>The search reads only the tensor's statistics, the bins' counts and {@code ‖c‖∞} (integer counts and a maximum,
 * the same in any order of the values), and gives its result as {@link Cuts}: {@link #plan} runs on statistics
 * counted elsewhere, {@link Cuts#assign} gives the widths.
 */
final class JointSqSearch {
    private static final int SHIFT = 19;
    private static final int BINS = 1 << (31 - SHIFT);
    private static final int FULL_SEARCH = 48;

    private final int[] histogram = new int[BINS];
    /** The non-empty bins, largest first: bin index, count, middle and upper edge; prefix sums over them. */
    private final int[] bins = new int[BINS];
    private final double[] count = new double[BINS];
    private final double[] middle = new double[BINS];
    private final double[] upper = new double[BINS];
    private final double[] p0 = new double[BINS + 1];
    private final double[] p1 = new double[BINS + 1];
    private final double[] p2 = new double[BINS + 1];
    private int entries;
    private long budget;
    private double linf;
    /** The best allocation found: entries of the 8-bit and 4-bit groups, and {@code K2}. */
    private int best8;
    private int best4;
    private long best2;

    /**
     * Writes the width (0, 2, 4 or 8) of each of {@code c[from … from + n)} into {@code widths[from…]}; returns the
     * value bits, at most {@code budget}.
     */
    long allocate(float[] c, int from, int n, float linf, long budget, byte[] widths) {
        if (!sendable(linf)) {
            Arrays.fill(widths, from, from + n, (byte) 0);
            return 0;
        }
        Arrays.fill(histogram, 0, bin(linf) + 1, 0);
        for (int i = from; i < from + n; i++) {
            histogram[bin(c[i])]++;
        }
        Cuts cuts = plan(histogram, linf, budget);
        cuts.assign(c, from, n, widths);
        return cuts.valueBits();
    }

    /** Whether a tensor whose largest magnitude is {@code linf} sends any value: not when it is 0, NaN or infinite. */
    static boolean sendable(float linf) {
        return linf > 0 && Float.isFinite(linf);
    }

    /**
     * The search on a tensor's statistics alone: {@code histogram[b]} values of bin {@code b} ({@link #bin}; bins
     * above {@code bin(linf)} are not read) and the largest magnitude {@code linf}, which must be
     * {@link #sendable}. What a device that counts the bins needs from the host to give the widths.
     */
    Cuts plan(int[] histogram, float linf, long budget) {
        this.budget = budget;
        this.linf = linf;
        compact(histogram, bin(linf));
        search();
        int t8 = best8 > 0 ? bins[best8 - 1] : BINS;
        int t4 = best4 > 0 ? bins[best4 - 1] : BINS;
        int end = covered(best4, best2);
        int t2 = end < entries ? bins[end] : 0;
        long quota = end < entries ? best2 - (long) (p0[end] - p0[best4]) : 0;
        long k8 = (long) p0[best8];
        return new Cuts(t8, t4, t2, quota, k8, (long) p0[best4] - k8, best2);
    }

    /**
     * An allocation as bin boundaries: bins from {@code t8} up get 8 bits, from {@code t4} 4, above {@code t2} 2, and
     * the first {@code quota} values of bin {@code t2} in position order 2 bits (never bin 0); {@code k8}, {@code k4}
     * and {@code k2} values of each width.
     */
    record Cuts(int t8, int t4, int t2, long quota, long k8, long k4, long k2) {
        /** The width of a value of bin {@code b} that is not in bin {@code t2}'s quota. */
        int width(int b) {
            return 2 * ((t2 - b) >>> 31) + 2 * ((t4 - 1 - b) >>> 31) + 4 * ((t8 - 1 - b) >>> 31);
        }

        /** The value bits: {@code 8·k8 + 4·k4 + packed(k2)} (see {@link JointSq#packedBits}). */
        long valueBits() {
            return 8 * k8 + 4 * k4 + JointSq.packedBits(k2);
        }

        /** Gives every value of {@code c[from … from + n)} its width by its bin. */
        void assign(float[] c, int from, int n, byte[] widths) {
            long left = quota;
            for (int i = from; i < from + n; i++) {
                int b = bin(c[i]);
                int w = width(b);
                if (b == t2 && left > 0 && b > 0) {
                    w = 2;
                    left--;
                }
                widths[i] = (byte) w;
            }
        }
    }

    /** The magnitude bin of {@code v}: its float's exponent and top four mantissa bits, the sign dropped. */
    static int bin(float v) {
        return (Float.floatToRawIntBits(v) & 0x7FFFFFFF) >>> SHIFT;
    }

    private static double lowerEdge(int bin) {
        return Float.intBitsToFloat(bin << SHIFT);
    }

    /** Lists the non-empty bins of {@code histogram} from {@code top} down to 1 with their prefix sums. */
    private void compact(int[] histogram, int top) {
        int k = 0;
        for (int b = top; b >= 1; b--) {
            int h = histogram[b];
            if (h == 0) {
                continue;
            }
            double hi = b == top ? linf : lowerEdge(b + 1);
            bins[k] = b;
            count[k] = h;
            upper[k] = hi;
            middle[k] = 0.5 * (lowerEdge(b) + hi);
            p0[k + 1] = p0[k] + h;
            p1[k + 1] = p1[k] + h * middle[k];
            p2[k + 1] = p2[k] + h * middle[k] * middle[k];
            k++;
        }
        entries = k;
    }

    /** Tries the 8-bit and 4-bit group ends on a grid, then every pair within one grid step of the best. */
    private void search() {
        int step = Math.max(1, entries / FULL_SEARCH);
        best8 = 0;
        best4 = 0;
        double bestError = scan(0, entries, 0, entries, step, Double.POSITIVE_INFINITY);
        if (step > 1) {
            scan(Math.max(0, best8 - step), Math.min(entries, best8 + step), Math.max(0, best4 - step),
                    Math.min(entries, best4 + step), 1, bestError);
        }
        best2 = twoBitCount(best8, best4);
    }

    /**
     * Evaluates the pairs {@code i8 ≤ i4} of {@code [lo8, hi8] × [lo4, hi4]} every {@code by} entries (and at the
     * ends), keeping the best in {@link #best8} and {@link #best4} when it beats {@code bestError}; returns the best
     * error.
     */
    private double scan(int lo8, int hi8, int lo4, int hi4, int by, double bestError) {
        for (int i8 = lo8; i8 <= hi8 && 8 * p0[i8] <= budget; i8 = next(i8, by, hi8)) {
            for (int i4 = Math.max(i8, lo4); i4 <= hi4; i4 = next(i4, by, hi4)) {
                double e = error(i8, i4);
                if (Double.isNaN(e)) {
                    break;
                }
                if (e < bestError) {
                    bestError = e;
                    best8 = i8;
                    best4 = i4;
                }
            }
        }
        return bestError;
    }

    /** The next grid point after {@code i}: {@code i + by}, but {@code last} itself once before passing it. */
    private static int next(int i, int by, int last) {
        return i < last && i + by > last ? last : i + by;
    }

    /** How many values the bits left after the 8- and 4-bit groups pay for, at most those below them. */
    private long twoBitCount(int i8, int i4) {
        long left = budget - 8 * (long) p0[i8] - 4 * (long) (p0[i4] - p0[i8]);
        return Math.min(JointSq.mostPacked(left), (long) (p0[entries] - p0[i4]));
    }

    /** The expected squared error with the groups ending at entries {@code i8} and {@code i4}; NaN if over budget. */
    private double error(int i8, int i4) {
        double k8 = p0[i8];
        double k4 = p0[i4] - k8;
        if (8 * k8 + 4 * k4 > budget) {
            return Double.NaN;
        }
        double e = 0;
        if (k8 > 0) {
            double step = 2 * linf / 255;
            e += k8 * step * step / 6;
        }
        if (k4 > 0) {
            double step = 2 * upper[i8] / 15;
            for (int j = 0; j < 8; j++) {
                e += cells(i8, i4, (2 * j - 1) * step / 2, (2 * j + 1) * step / 2);
            }
        }
        long k2 = twoBitCount(i8, i4);
        int end = covered(i4, k2);
        double part = end < entries ? k2 - (p0[end] - p0[i4]) : 0;
        if (k2 > 0) {
            double s = upper[i4];
            e += cells(i4, end, 0, s / 2) + cells(i4, end, s / 2, s);
            if (part > 0) {
                double m = middle[end];
                e += part * Math.max(0, m < s / 2 ? m * (s / 2 - m) : (m - s / 2) * (s - m));
            }
        }
        double dropped = p2[entries] - p2[end] - (part > 0 ? part * middle[end] * middle[end] : 0);
        return e + dropped;
    }

    /** The last entry the {@code k2} values from entry {@code i4} on reach into: all of those before it are taken. */
    private int covered(int i4, long k2) {
        double target = p0[i4] + k2;
        int lo = i4;
        int hi = entries;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (p0[mid] <= target) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * The rounding variance {@code (a − lo)(hi − a)} summed over the entries of {@code [from, to)} whose middles lie
     * in {@code [lo, hi)} ({@code hi} included for the group's top cell), by prefix sums; never negative.
     */
    private double cells(int from, int to, double lo, double hi) {
        int a = firstBelow(from, to, hi, true);
        int b = firstBelow(from, to, lo, false);
        if (b <= a) {
            return 0;
        }
        double s0 = p0[b] - p0[a];
        double s1 = p1[b] - p1[a];
        double s2 = p2[b] - p2[a];
        return Math.max(0, -s2 + (lo + hi) * s1 - lo * hi * s0);
    }

    /** The first entry of {@code [from, to)} whose middle is below {@code x} (or at most it when {@code atMost}). */
    private int firstBelow(int from, int to, double x, boolean atMost) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            boolean below = atMost ? middle[mid] <= x : middle[mid] < x;
            if (below) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
