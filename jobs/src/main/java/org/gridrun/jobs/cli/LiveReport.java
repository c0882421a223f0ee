package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.RunDir;
import org.gridrun.jobs.Workspace;
import org.gridrun.reports.GridReport;

/**
 * The report of a grid kept alive while it runs: every {@code seconds} it ingests the run directories of the grid's
 * experiments in flight and rewrites {@code reports/<grid>/} with pages that reload themselves at the same interval.
 *
 * <p>It writes quietly on its own thread; a failure is said once on {@code err} and tried again at the next tick.
 * Closing it stops the ticks; the caller then writes the final report, whose pages no longer reload.
 */
final class LiveReport implements AutoCloseable {
    /** Seconds between rewrites unless {@code --report-every} says otherwise. */
    static final int DEFAULT_SECONDS = 30;

    private final Workspace workspace;
    private final ResultsStore store;
    private final String grid;
    private final int seconds;
    private final PrintWriter err;
    private final ScheduledExecutorService timer;
    private boolean warned;

    private LiveReport(Workspace workspace, ResultsStore store, String grid, int seconds, PrintWriter err) {
        this.workspace = workspace;
        this.store = store;
        this.grid = grid;
        this.seconds = seconds;
        this.err = err;
        this.timer = seconds <= 0 ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "grid-run live report");
            thread.setDaemon(true);
            return thread;
        });
        if (timer != null) {
            timer.scheduleWithFixedDelay(this::tick, 0, seconds, TimeUnit.SECONDS);
        }
    }

    /** Starts rewriting {@code grid}'s report every {@code seconds}; 0 or less writes nothing. */
    static LiveReport start(Workspace workspace, ResultsStore store, String grid, int seconds, PrintWriter err) {
        return new LiveReport(workspace, store, grid, seconds, err);
    }

    /** Ingests what the grid's experiments in flight wrote so far, then writes the report with reloading pages. */
    static void write(Workspace workspace, ResultsStore store, String grid, int seconds) {
        for (StoredExperiment e : store.experiments(grid, null)) {
            if (e.state() != null && e.state().isInFlight() && e.runDir() != null) {
                RunDir dir = RunDir.at(e.runDir());
                if (dir.exists()) {
                    store.ingest(dir);
                }
            }
        }
        GridReport.write(store, grid, null, workspace.reportDir(grid), true, seconds);
    }

    private void tick() {
        try {
            write(workspace, store, grid, seconds);
            warned = false;
        } catch (RuntimeException e) {
            if (!warned) {
                err.println("grid-run: cannot rewrite the live report of " + grid + " (" + e.getMessage()
                        + "); trying again in " + seconds + " s");
                err.flush();
                warned = true;
            }
        }
    }

    @Override
    public void close() {
        if (timer == null) {
            return;
        }
        timer.shutdown();
        try {
            timer.awaitTermination(5, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
