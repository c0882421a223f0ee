package org.gridrun.engine.backend;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutionException;

/**
 * Splits a loop over independent items (images of a batch, rows of a matrix) between this thread and one helper
 * thread, so that the CPU backend's elementwise and window kernels use both cores of a small machine.
 *
 * <p>Work below {@link #MIN_WORK} values stays on the calling thread. The split is by item, so the result does not
 * depend on whether it ran split: each item is computed by the same code either way.
 */
final class CpuParallel {
    /** Below this many values of work, splitting costs more than it saves. */
    static final long MIN_WORK = 1 << 16;

    private static final int THREADS = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
    private static final ExecutorService HELPER = THREADS < 2 ? null : Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "gridrun-cpu-helper");
        t.setDaemon(true);
        return t;
    });

    /** A loop body over items {@code [from, to)}. */
    interface Range {
        void run(int from, int to);
    }

    private CpuParallel() {
    }

    /** How many threads {@link #forEach} uses. */
    static int threads() {
        return THREADS;
    }

    /** Whether {@link #forEach} runs {@code items} of {@code work} values in two halves: a matter of shape only. */
    static boolean splits(int items, long work) {
        return HELPER != null && items >= 2 && work >= MIN_WORK;
    }

    /** Runs {@code body} over {@code [0, items)}, in two halves on two threads when {@code work} is large. */
    static void forEach(int items, long work, Range body) {
        if (!splits(items, work)) {
            body.run(0, items);
            return;
        }
        int half = items / 2;
        Future<?> other = HELPER.submit(() -> body.run(half, items));
        body.run(0, half);
        try {
            other.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the helper thread", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(cause);
        }
    }
}
