package org.gridrun.engine.model.nn;

import org.gridrun.engine.random.CounterRng;

/**
 * How a parameter tensor starts: each kind is the PyTorch default it mirrors.
 */
public enum Init {
    /** {@code N(0, 2/fan_in)}: {@code kaiming_normal_} as the seed's CIFAR ResNets initialise convs and linears. */
    KAIMING_NORMAL,
    /**
     * {@code N(0, 2/fan_out)}: {@code kaiming_normal_(mode='fan_out', nonlinearity='relu')}, torchvision's ResNet
     * convs, and the wide ResNet's {@code normal_(0, sqrt(2/(k·k·out_channels)))}.
     */
    KAIMING_NORMAL_FAN_OUT,
    /** {@code U(±1/sqrt(fan_in))}: PyTorch's default for the weights and biases of {@code Conv2d} and {@code Linear}. */
    FAN_IN_UNIFORM,
    /** {@code N(0, 0.02²)} cut at two deviations: timm's {@code trunc_normal_(std=.02)} for Vision Transformers. */
    TRUNCATED_NORMAL,
    /**
     * {@code U(±sqrt(6/fan_in))}, Kaiming/He uniform ({@code kaiming_uniform_(nonlinearity='relu')}): the mlp's
     * weights, drawn as {@code −b + 2b·u} with {@code b} and the 24-bit uniform {@code u} in float, as the mlp always
     * drew them.
     */
    KAIMING_UNIFORM,
    /** All zeros. */
    ZEROS,
    /** All ones (batch-norm scales). */
    ONES;

    /**
     * Fills {@code out[offset … offset + size)} for a tensor with {@code fanIn} inputs per output and {@code fanOut}
     * outputs per input.
     */
    void fill(float[] out, int offset, int size, int fanIn, int fanOut, CounterRng rng) {
        switch (this) {
            case ZEROS -> java.util.Arrays.fill(out, offset, offset + size, 0f);
            case ONES -> java.util.Arrays.fill(out, offset, offset + size, 1f);
            case FAN_IN_UNIFORM -> {
                double bound = 1.0 / Math.sqrt(fanIn);
                for (int i = 0; i < size; i++) {
                    out[offset + i] = (float) ((2 * rng.nextDouble() - 1) * bound);
                }
            }
            case KAIMING_UNIFORM -> {
                float bound = (float) Math.sqrt(6.0 / fanIn);
                float low = -bound;
                float width = bound - low;
                for (int i = 0; i < size; i++) {
                    out[offset + i] = low + width * rng.nextFloat();
                }
            }
            case KAIMING_NORMAL -> normal(out, offset, size, Math.sqrt(2.0 / fanIn), rng);
            case KAIMING_NORMAL_FAN_OUT -> normal(out, offset, size, Math.sqrt(2.0 / fanOut), rng);
            case TRUNCATED_NORMAL -> truncatedNormal(out, offset, size, 0.02, rng);
            default -> throw new IllegalStateException(name());
        }
    }

    /** {@code N(0, std²)} values by the Box–Muller transform, two per pair of uniform draws. */
    private static void normal(float[] out, int offset, int size, double std, CounterRng rng) {
        for (int i = 0; i < size; i += 2) {
            double radius = Math.sqrt(-2 * Math.log(1 - rng.nextDouble()));
            double angle = 2 * Math.PI * rng.nextDouble();
            out[offset + i] = (float) (std * radius * Math.cos(angle));
            if (i + 1 < size) {
                out[offset + i + 1] = (float) (std * radius * Math.sin(angle));
            }
        }
    }

    /** {@code N(0, std²)} values redrawn until within two deviations. */
    private static void truncatedNormal(float[] out, int offset, int size, double std, CounterRng rng) {
        for (int i = 0; i < size; i++) {
            double z;
            do {
                z = Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
            } while (Math.abs(z) > 2);
            out[offset + i] = (float) (std * z);
        }
    }
}
