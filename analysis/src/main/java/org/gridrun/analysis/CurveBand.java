package org.gridrun.analysis;

/**
 * One step of a curve over seeds: the step and the summary of the seeds' values there (mean, std, 95% interval).
 *
 * @param step    the training iteration
 * @param summary the values of the seeds at that step
 */
public record CurveBand(long step, SeedSummary summary) {
}
