package org.gridrun.engine.run;

/**
 * One measured value of an experiment: the unit every job writes and the store ingests.
 *
 * <p>Names follow the ALQ/AMQ seed where one exists ({@code loss}, {@code Vloss}, {@code Vacc}, {@code bits}), plus
 * gridrun's own ({@code bytes_sent}, {@code encode_ms}).
 *
 * @param name       the metric name
 * @param step       the training iteration it belongs to
 * @param value      the value
 * @param wallMillis wall-clock time of the measurement, milliseconds since the epoch
 */
public record MetricRecord(String name, long step, double value, long wallMillis) {
}
