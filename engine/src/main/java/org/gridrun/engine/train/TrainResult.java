package org.gridrun.engine.train;

/**
 * How a training run ended.
 *
 * @param steps         the steps completed (for a diverged run, the step whose loss was not finite)
 * @param finalAccuracy the last test-set accuracy ({@code Vacc}) in [0, 1]; NaN when none was measured
 * @param finalLoss     the last test-set loss ({@code Vloss}); NaN when none was measured
 * @param diverged      whether the training loss became NaN or infinite, which stopped the run
 * @param dataSource    where the data came from, in one line
 * @param backend       the backend that ran (what {@code auto} picked)
 * @param blas          the linear-algebra library behind it
 * @param wallSeconds   the wall time of the training loop, evaluations included
 */
public record TrainResult(long steps, double finalAccuracy, double finalLoss, boolean diverged, String dataSource,
                          String backend, String blas, double wallSeconds) {
}
