package org.gridrun.engine.train;

import java.util.Objects;

/**
 * How a training run ended.
 *
 * @param steps         the steps completed (for a diverged run, the step whose loss was not finite)
 * @param finalAccuracy the last test-set accuracy ({@code Vacc}) in [0, 1], measured in this run or before the
 *                      checkpoint it resumed from; NaN when none was measured
 * @param finalLoss     the last test-set loss ({@code Vloss}), likewise; NaN when none was measured
 * @param headline      the number the run is judged by: accuracy, or perplexity for a language model
 * @param diverged      whether the training loss became NaN or infinite, which stopped the run
 * @param stopReason    why the run stopped before its last step on a {@link StopSignal}, having saved a checkpoint at
 *                      {@code steps} (when it had one to save to); empty when it was not stopped
 * @param dataSource    where the data came from, in one line
 * @param backend       the backend that ran (what {@code auto} picked)
 * @param blas          the linear-algebra library behind it
 * @param wallSeconds   the wall time of this run's training loop, evaluations and checkpoints included
 */
public record TrainResult(long steps, double finalAccuracy, double finalLoss, Headline headline, boolean diverged,
                          String stopReason, String dataSource, String backend, String blas, double wallSeconds) {
    public TrainResult {
        Objects.requireNonNull(stopReason, "stopReason");
        Objects.requireNonNull(headline, "headline");
    }

    /** The headline's last value: the final accuracy, or the perplexity of the final test loss; NaN when none. */
    public double finalHeadline() {
        return headline.of(finalLoss, finalAccuracy);
    }

    /** Whether a stop request ended the run before its last step. */
    public boolean stopped() {
        return !stopReason.isEmpty();
    }
}
