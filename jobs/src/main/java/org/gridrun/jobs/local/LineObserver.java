package org.gridrun.jobs.local;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.jobs.plan.PlannedExperiment;

/**
 * Progress as plain lines, for logs, pipes and CI: one line per finished experiment and a heartbeat line.
 */
public final class LineObserver implements RunObserver {
    private static final long HEARTBEAT_NANOS = 10_000_000_000L;

    private final PrintWriter out;
    private int jobs;
    private int finished;
    private long totalSteps;
    private long lastBeat = System.nanoTime();

    public LineObserver(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void started(int jobs, long totalSteps) {
        this.jobs = jobs;
        this.totalSteps = totalSteps;
    }

    @Override
    public void progress(long doneSteps, List<PlannedExperiment> running) {
        long now = System.nanoTime();
        if (now - lastBeat >= HEARTBEAT_NANOS && totalSteps > 0) {
            lastBeat = now;
            out.printf(Locale.ROOT, "  … %d/%d iterations (%.0f%%), %d running%n", doneSteps, totalSteps,
                    100.0 * doneSteps / totalSteps, running.size());
        }
    }

    @Override
    public void finished(PlannedExperiment experiment, StatusEntry entry, double seconds, String summary) {
        finished++;
        out.println(line(finished, jobs, experiment, entry, seconds, summary));
    }

    /** The line printed for one finished experiment; the terminal view reuses it. */
    static String line(int index, int jobs, PlannedExperiment e, StatusEntry entry, double seconds, String summary) {
        return String.format(Locale.ROOT, "[%d/%d] %-9s %s  %s (%.1f s)", index, jobs, entry.state(),
                e.record().name(), summary, seconds);
    }

    @Override
    public void closed() {
        out.flush();
    }
}
