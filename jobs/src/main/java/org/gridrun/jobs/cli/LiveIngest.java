package org.gridrun.jobs.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunDir;

/**
 * Mirrors a training job's run directory into a results store served over the network while it trains: every
 * period, and once when closed, it ingests the directory (state, attempts, new spool records).
 *
 * <p>The spool stays the truth: the job writes it whether or not the store is reachable, and an ingest only ever
 * reads it. A store that cannot be opened, or fails mid-way, is reported once on {@code err} and tried again at the
 * next period; whatever does not arrive is picked up by a later ingest, exactly once.
 */
final class LiveIngest implements AutoCloseable {
    /** The environment variable that names the store's JDBC URL when {@code --db-url} is not given. */
    static final String URL_ENV = "GRIDRUN_DB_URL";

    private final String url;
    private final RunDir dir;
    private final PrintStream err;
    private final ScheduledExecutorService timer;
    private ResultsStore store;
    private boolean warned;

    private LiveIngest(String url, RunDir dir, PrintStream err, Duration period) {
        this.url = url;
        this.dir = dir;
        this.err = err;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "grid-run live ingest");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::ingest, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts mirroring {@code dir} to {@code url} every {@code period}; null or blank {@code url}: nothing. */
    static AutoCloseable start(String url, RunDir dir, PrintStream err, Duration period) {
        return url == null || url.isBlank() ? () -> { } : new LiveIngest(url, dir, err, period);
    }

    private synchronized void ingest() {
        try {
            if (store == null) {
                store = ResultsStore.openUrl(url);
            }
            store.ingest(dir);
            warned = false;
        } catch (RuntimeException e) {
            if (!warned) {
                err.println("grid-run train: cannot write to the results store at " + url + " (" + e.getMessage()
                        + "); the metric spool keeps every record for a later ingest");
                warned = true;
            }
            closeStore();
        }
    }

    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ingest();
        closeStore();
    }

    private synchronized void closeStore() {
        if (store != null) {
            try {
                store.close();
            } catch (RuntimeException ignored) {
                // the connection is gone already
            }
            store = null;
        }
    }
}
