package org.gridrun.engine.train;

/**
 * Progress callbacks of a training run, e.g. for a command line to print.
 *
 * <p>Order of calls: {@link #onStart} once before the first step (of a resumed run, the first after its
 * checkpoint's); then, as steps complete, {@link #onLog} every log interval and {@link #onEval} after each test-set
 * evaluation (every {@code chkpt_iter} steps and at the end). A diverged run reports its last step through
 * {@code onLog}, with the non-finite loss, and stops; one asked to stop ends after the step under way. Callbacks run
 * on the training thread, so they should return quickly. Every method does nothing by default.
 */
public interface TrainListener {
    /** A listener that ignores everything. */
    TrainListener NONE = new TrainListener() {
    };

    /** What is about to be trained, on what data and hardware, in one line. */
    default void onStart(String info) {
    }

    /** The mean training loss over workers and the steps since the last call, and the training throughput. */
    default void onLog(long step, long total, double loss, double samplesPerSecond) {
    }

    /**
     * The test-set loss and accuracy (in [0, 1]) after {@code step}, and which number the run is judged by
     * ({@link Headline#of(double, double)} gives it).
     */
    default void onEval(long step, Headline headline, double loss, double accuracy) {
    }
}
