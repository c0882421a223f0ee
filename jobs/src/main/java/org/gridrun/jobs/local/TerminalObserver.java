package org.gridrun.jobs.local;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.jobs.plan.PlannedExperiment;

/**
 * Progress on a terminal: one live bar of training iterations over the whole plan, the latest result beside it,
 * and a line per experiment once the bar is closed.
 */
public final class TerminalObserver implements RunObserver {
    private final PrintWriter out;
    private final List<String> lines = new ArrayList<>();
    private ProgressBar bar;
    private int jobs;

    public TerminalObserver(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void started(int jobs, long totalSteps) {
        this.jobs = jobs;
        bar = new ProgressBarBuilder()
                .setTaskName("training")
                .setInitialMax(Math.max(1, totalSteps))
                .setUnit(" it", 1)
                .setStyle(ProgressBarStyle.COLORFUL_UNICODE_BLOCK)
                .setUpdateIntervalMillis(250)
                .showSpeed()
                .build();
    }

    @Override
    public void progress(long doneSteps, List<PlannedExperiment> running) {
        bar.stepTo(doneSteps);
        if (lines.isEmpty()) {
            bar.setExtraMessage(" " + running.size() + " running");
        }
    }

    @Override
    public void finished(PlannedExperiment experiment, StatusEntry entry, double seconds, String summary) {
        lines.add(LineObserver.line(lines.size() + 1, jobs, experiment, entry, seconds, summary));
        bar.setExtraMessage(" " + lines.size() + "/" + jobs + " done · " + summary);
    }

    @Override
    public void closed() {
        if (bar != null) {
            bar.close();
        }
        lines.forEach(out::println);
        out.flush();
    }
}
