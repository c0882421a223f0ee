package org.gridrun.engine.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Sums of the per-step measurements since the last training-metric record.
 *
 * <p>A checkpoint between two records saves the sums, so the resumed run's next record averages the same steps.
 */
final class IntervalStats {
    private int steps;
    private double loss;
    private long stepNanos;
    private long encodeNanos;
    private long decodeNanos;
    private long computeNanos;

    void add(double meanLoss, long step, long encode, long decode, long compute) {
        steps++;
        loss += meanLoss;
        stepNanos += step;
        encodeNanos += encode;
        decodeNanos += decode;
        computeNanos += compute;
    }

    boolean isEmpty() {
        return steps == 0;
    }

    int steps() {
        return steps;
    }

    double meanLoss() {
        return loss / steps;
    }

    double stepMillis() {
        return stepNanos / 1e6 / steps;
    }

    double encodeMillis() {
        return encodeNanos / 1e6 / steps;
    }

    double decodeMillis() {
        return decodeNanos / 1e6 / steps;
    }

    double computeMillis() {
        return computeNanos / 1e6 / steps;
    }

    double seconds() {
        return stepNanos / 1e9;
    }

    void saveState(DataOutput out) throws IOException {
        out.writeInt(steps);
        out.writeDouble(loss);
        out.writeLong(stepNanos);
        out.writeLong(encodeNanos);
        out.writeLong(decodeNanos);
        out.writeLong(computeNanos);
    }

    void restoreState(DataInput in) throws IOException {
        steps = in.readInt();
        loss = in.readDouble();
        stepNanos = in.readLong();
        encodeNanos = in.readLong();
        decodeNanos = in.readLong();
        computeNanos = in.readLong();
    }

    void clear() {
        steps = 0;
        loss = 0;
        stepNanos = 0;
        encodeNanos = 0;
        decodeNanos = 0;
        computeNanos = 0;
    }
}
