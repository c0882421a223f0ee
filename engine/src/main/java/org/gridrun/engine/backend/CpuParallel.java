package org.gridrun.engine.backend;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutionException;

/**
 * Splits a loop over independent items (images of a batch, rows of a matrix) between this thread and one helper
 * thread, so that the CPU backend's elementwise and window kernels use both cores of a small machine.
 *
 * <p>Work below {@link #MIN_WORK} values stays on the calling thread. The split is by item, so the result does not
 * depend on whether it ran split: each item is computed by the same code either way. The compressors split their
 * encodes and decodes through {@link #both} on the same helper thread, so gridrun keeps one helper, not two pools.
 */
public final class CpuParallel {
    /** Below this many values of work, splitting costs more than it saves. */
    static final long MIN_WORK = 1 << 16;

    private static final int THREADS = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
    private static final String HELPER_NAME = "gridrun-cpu-helper";
    private static final ExecutorService HELPER = THREADS < 2 ? null : Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, HELPER_NAME);
        t.setDaemon(true);
        return t;
    });

    /** A loop body over items {@code [from, to)}. */
    interface Range {
        void run(int from, int to);
    }

    private CpuParallel() {
    }

    /** How many threads {@link #forEach} and {@link #both} use: 2 on a machine with two cores or more, else 1. */
    public static int threads() {
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
        both(() -> body.run(half, items), () -> body.run(0, half));
    }

    /**
     * Runs {@code first} on the helper thread and {@code second} on this one, and returns when both are done; an
     * exception of either is rethrown here (this thread's first), and only once both parts have ended. Called from the
     * helper thread itself (a split inside a split), or with one thread, it runs both here, one after the other,
     * rather than wait on itself.
     */
    public static void both(Runnable first, Runnable second) {
        if (HELPER == null || Thread.currentThread().getName().equals(HELPER_NAME)) {
            first.run();
            second.run();
            return;
        }
        Future<?> other = HELPER.submit(first);
        Throwable mine = null;
        try {
            second.run();
        } catch (RuntimeException | Error e) {
            mine = e;
        }
        // Whatever happened here, not before the helper's part has ended: it writes into the arrays the caller uses
        // next (an interrupt is kept for the caller, not acted on mid-step).
        Throwable helpers = awaitEnd(other);
        rethrow(mine != null ? mine : helpers);
    }

    /**
     * Waits until {@code task} has ended, whatever its outcome, and returns what it threw (null if nothing); an
     * interrupt is kept for the caller to see.
     */
    private static Throwable awaitEnd(Future<?> task) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    task.get();
                    return null;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return e.getCause();
                } catch (CancellationException e) {
                    return e;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Throws {@code failure} as it is (wrapped where it is checked); nothing when it is null. */
    private static void rethrow(Throwable failure) {
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }
}
