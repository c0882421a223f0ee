package org.gridrun.engine.compress;

import org.gridrun.engine.backend.CpuParallel;

/**
 * Runs the two halves of an encode or decode at once, one on the CPU backend's helper thread and one in the caller.
 *
 * <p>Only worth it from {@link #MIN_VALUES} values on; each half must write disjoint bytes and draw its random numbers
 * at positions that depend only on the values it handles, so the output is the same whatever the thread count.
 */
final class Halves {
    /** Below this many values one thread does everything. */
    static final int MIN_VALUES = 1 << 20;

    /** The threshold in force: {@link #MIN_VALUES}, lowered only by tests that check both paths agree. */
    static volatile int minValues = MIN_VALUES;

    /** The work on items {@code [from, to)}; {@code part} is 0 for the first half (or the whole), 1 for the second. */
    @FunctionalInterface
    interface Part {
        void run(int part, int from, int to);
    }

    private Halves() {
    }

    /** Whether {@code length} values are worth splitting on this machine. */
    static boolean worthIt(long length) {
        return length >= minValues && CpuParallel.threads() > 1;
    }

    /** Runs {@code first} on the backend's helper thread and {@code second} here ({@link CpuParallel#both}). */
    static void run(Runnable first, Runnable second) {
        CpuParallel.both(first, second);
    }

    /** The middle of {@code count} items rounded down to a multiple of {@code align}. */
    static int middle(int count, int align) {
        return count / 2 / align * align;
    }

    /**
     * Runs {@code work} on items {@code [0, count)} in two halves split at {@link #middle}, at once when
     * {@code parallel} is true; see {@link #run(int, int, boolean, Part)}.
     */
    static void split(int count, int align, boolean parallel, Part work) {
        run(middle(count, align), count, parallel, work);
    }

    /**
     * Runs {@code work} as part 0 on items {@code [0, mid)} and part 1 on {@code [mid, count)}, skipping an empty
     * part: at once when {@code parallel} is true, else one after the other. The parts are the same either way, so a
     * method that splits its work in parts gets the same result with one thread or two.
     */
    static void run(int mid, int count, boolean parallel, Part work) {
        if (parallel && mid > 0 && mid < count) {
            run(() -> work.run(1, mid, count), () -> work.run(0, 0, mid));
            return;
        }
        if (mid > 0) {
            work.run(0, 0, mid);
        }
        if (mid < count) {
            work.run(1, mid, count);
        }
    }
}
