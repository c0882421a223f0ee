package org.gridrun.analysis;

/**
 * One row of {@code metric_blocks}: up to {@link #MAX_POINTS} records of one metric series and one attempt, in
 * ascending step order.
 *
 * @param attempt the attempt that wrote these records
 * @param steps   the steps, strictly ascending
 * @param values  the value at each step
 * @param walls   the wall time at each step, in epoch milliseconds
 */
record MetricBlock(int attempt, long[] steps, double[] values, long[] walls) {
    /** The most records a block holds; the schema declares its arrays with this cardinality. */
    static final int MAX_POINTS = 1024;

    MetricBlock {
        if (steps.length == 0 || steps.length > MAX_POINTS || values.length != steps.length
                || walls.length != steps.length) {
            throw new IllegalArgumentException("a metric block holds 1 to " + MAX_POINTS
                    + " records with one value and wall time each, found " + steps.length + " steps, "
                    + values.length + " values and " + walls.length + " wall times");
        }
    }

    /** The lowest step, which keys the block within its series. */
    long firstStep() {
        return steps[0];
    }

    /** The highest step. */
    long lastStep() {
        return steps[steps.length - 1];
    }

    /** The number of records. */
    int size() {
        return steps.length;
    }
}
