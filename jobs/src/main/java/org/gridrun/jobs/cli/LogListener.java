package org.gridrun.jobs.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.gridrun.engine.train.Headline;
import org.gridrun.engine.train.TrainListener;

/**
 * A job's progress as plain log lines: what it trains on, then loss and speed every log interval, then each
 * test-set evaluation.
 */
final class LogListener implements TrainListener {
    private final PrintStream out;

    LogListener(PrintStream out) {
        this.out = out;
    }

    @Override
    public void onStart(String info) {
        out.println(info);
        out.flush();
    }

    @Override
    public void onLog(long step, long total, double loss, double samplesPerSecond) {
        out.printf(Locale.ROOT, "step %d/%d  loss %.4f  %.0f samples/s%n", step, total, loss, samplesPerSecond);
        out.flush();
    }

    @Override
    public void onEval(long step, Headline headline, double loss, double accuracy) {
        out.printf(Locale.ROOT, "step %d  test loss %.4f  %s %s%n", step, loss, headline.label(),
                headline.format(headline.of(loss, accuracy)));
        out.flush();
    }
}
