package org.gridrun.jobs.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.gridrun.engine.train.Headline;
import org.gridrun.engine.train.TrainListener;

/**
 * A job's progress on a terminal: one line redrawn in place with a bar, the step, the training loss, the latest test
 * accuracy (perplexity for a language model) and the throughput; what is trained on, and the end, on lines of their own.
 *
 * <p>{@link #forOutput} picks it only for a terminal; a log file gets {@link LogListener}'s plain lines, which a
 * carriage return would garble.
 */
final class ProgressBarListener implements TrainListener {
    private static final int WIDTH = 30;

    private final PrintStream out;
    private double loss = Double.NaN;
    private Headline headline = Headline.ACCURACY;
    private double result = Double.NaN;
    private double samplesPerSecond;
    private long total;

    ProgressBarListener(PrintStream out) {
        this.out = out;
    }

    /** A progress bar when {@code terminal}, else plain log lines; both to {@code out}. */
    static TrainListener forOutput(PrintStream out, boolean terminal) {
        return terminal ? new ProgressBarListener(out) : new LogListener(out);
    }

    @Override
    public void onStart(String info) {
        out.println(info);
        out.flush();
    }

    @Override
    public void onLog(long step, long total, double loss, double samplesPerSecond) {
        this.total = total;
        this.loss = loss;
        this.samplesPerSecond = samplesPerSecond;
        draw(step);
    }

    @Override
    public void onEval(long step, Headline headline, double loss, double accuracy) {
        this.headline = headline;
        this.result = headline.of(loss, accuracy);
        draw(step);
        if (step == total) {
            out.println();
            out.flush();
        }
    }

    /** The bar line for {@code step} of {@code total} (package-private, for tests). */
    String line(long step) {
        int filled = total <= 0 ? 0 : (int) Math.min(WIDTH, WIDTH * step / total);
        return String.format(Locale.ROOT, "[%s%s] %d/%d  loss %.4f  %s %s  %.0f samples/s",
                "#".repeat(filled), " ".repeat(WIDTH - filled), step, total, loss,
                headline == Headline.PERPLEXITY ? "ppl" : "acc", Double.isNaN(result) ? "-" : headline.format(result),
                samplesPerSecond);
    }

    private void draw(long step) {
        out.print("\r" + line(step));
        out.flush();
    }
}
