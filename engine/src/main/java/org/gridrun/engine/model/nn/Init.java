package org.gridrun.engine.model.nn;

import org.gridrun.engine.random.CounterRng;

/**
 * How a parameter tensor starts: each kind is the PyTorch default it mirrors.
 */
public enum Init {
    /** {@code N(0, 2/fan_in)}: {@code kaiming_normal_} as the seed's CIFAR ResNets initialise convs and linears. */
    KAIMING_NORMAL,
    /** {@code U(±1/sqrt(fan_in))}: PyTorch's default for the weights and biases of {@code Conv2d} and {@code Linear}. */
    FAN_IN_UNIFORM,
    /** All zeros. */
    ZEROS,
    /** All ones (batch-norm scales). */
    ONES;

    /** Fills {@code out[offset … offset + size)} for a tensor with {@code fanIn} inputs per output. */
    void fill(float[] out, int offset, int size, int fanIn, CounterRng rng) {
        switch (this) {
            case ZEROS -> java.util.Arrays.fill(out, offset, offset + size, 0f);
            case ONES -> java.util.Arrays.fill(out, offset, offset + size, 1f);
            case FAN_IN_UNIFORM -> {
                double bound = 1.0 / Math.sqrt(fanIn);
                for (int i = 0; i < size; i++) {
                    out[offset + i] = (float) ((2 * rng.nextDouble() - 1) * bound);
                }
            }
            case KAIMING_NORMAL -> {
                double std = Math.sqrt(2.0 / fanIn);
                for (int i = 0; i < size; i += 2) {
                    double radius = Math.sqrt(-2 * Math.log(1 - rng.nextDouble()));
                    double angle = 2 * Math.PI * rng.nextDouble();
                    out[offset + i] = (float) (std * radius * Math.cos(angle));
                    if (i + 1 < size) {
                        out[offset + i + 1] = (float) (std * radius * Math.sin(angle));
                    }
                }
            }
            default -> throw new IllegalStateException(name());
        }
    }
}
