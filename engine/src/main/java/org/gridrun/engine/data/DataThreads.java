package org.gridrun.engine.data;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that decode and augment images for every worker of one run ({@code data_threads}), or none: then
 * batches are assembled on the caller's thread when they are taken.
 *
 * <p>The threads are daemons named {@code gridrun-data-N}, so a run that ends without closing them still exits.
 */
public final class DataThreads implements AutoCloseable {
    private static final DataThreads INLINE = new DataThreads(null, 0);

    private final ExecutorService pool;
    private final int threads;

    private DataThreads(ExecutorService pool, int threads) {
        this.pool = pool;
        this.threads = threads;
    }

    /** No threads: every batch is assembled when it is taken. */
    public static DataThreads inline() {
        return INLINE;
    }

    /** A pool of {@code threads} data threads, at least 1. */
    public static DataThreads of(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("data_threads must be at least 1, found " + threads);
        }
        AtomicInteger count = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "gridrun-data-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        return new DataThreads(pool, threads);
    }

    /** The number of threads; 0 when {@link #inline()}. */
    public int threads() {
        return threads;
    }

    /** Whether there are no threads. */
    public boolean isInline() {
        return pool == null;
    }

    /** Runs {@code task} on a data thread, or now on this one when {@link #isInline()}. */
    Future<?> submit(Runnable task) {
        if (pool == null) {
            FutureTask<Void> now = new FutureTask<>(task, null);
            now.run();
            return now;
        }
        return pool.submit(task);
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return pool == null ? "no data threads" : threads + " data thread" + (threads == 1 ? "" : "s");
    }
}
