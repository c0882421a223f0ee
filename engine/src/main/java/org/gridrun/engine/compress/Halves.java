package org.gridrun.engine.compress;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * Runs two independent halves of an encode or decode at once, one on the common pool and one in the caller.
 *
 * <p>Only worth it above {@link #MIN_VALUES} values; each half must write disjoint bytes and draw its random numbers
 * from its own generator positioned where a sequential run would be, so the output is the same whatever the thread
 * count.
 */
final class Halves {
    /** Below this many values one thread does everything. */
    static final int MIN_VALUES = 1 << 20;

    private Halves() {
    }

    /** Whether {@code length} values are worth splitting on this machine. */
    static boolean worthIt(int length) {
        return length >= MIN_VALUES && Runtime.getRuntime().availableProcessors() > 1;
    }

    /** Runs {@code first} on the common pool and {@code second} here, and returns when both are done. */
    static void run(Runnable first, Runnable second) {
        ForkJoinTask<?> task = ForkJoinPool.commonPool().submit(first);
        second.run();
        task.join();
    }
}
