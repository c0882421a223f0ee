package org.gridrun.engine.optim;

import java.util.Arrays;
import java.util.List;

/**
 * The learning rate of each training step: a base rate, a decay shape, and an optional linear warm-up.
 *
 * <p>Steps are counted from 1, as the trainer's metrics count them; step {@code s} follows {@code s − 1} completed
 * iterations. {@link #multistep}: the base rate times {@code rate^k}, k the number of milestones {@code ≤ s − 1}, so a
 * milestone of 40000 first lowers step 40001 (PyTorch's {@code MultiStepLR} stepped after every iteration, and the
 * seed's count of completed iterations). {@link #cosine}: {@code lr·(1 + cos(π·(s − 1)/T))/2} over a run of T
 * steps, from the base rate at step 1 towards 0 after the last step. A warm-up of W steps multiplies either by
 * {@code min(1, s/W)}: it rises linearly from {@code lr/W} at step 1 to the scheduled rate at step W (the gradual
 * warm-up of Goyal et al., from a rate near zero).
 */
public final class LearningRateSchedule {
    private final double lr;
    private final long[] milestones;
    private final double rate;
    private final long cosineSteps;
    private final long warmup;

    private LearningRateSchedule(double lr, long[] milestones, double rate, long cosineSteps, long warmup) {
        if (!(lr > 0) || Double.isInfinite(lr)) {
            throw new IllegalArgumentException("lr must be positive, found " + lr);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("warmup_iters must not be negative, found " + warmup);
        }
        this.lr = lr;
        this.milestones = milestones;
        this.rate = rate;
        this.cosineSteps = cosineSteps;
        this.warmup = warmup;
    }

    /**
     * {@code lr}, multiplied by {@code rate} after each of {@code milestones} iterations (strictly increasing,
     * positive), with {@code warmup} warm-up steps; no milestones is a constant rate.
     */
    public static LearningRateSchedule multistep(double lr, List<Long> milestones, double rate, long warmup) {
        long[] m = milestones.stream().mapToLong(Long::longValue).toArray();
        for (int i = 0; i < m.length; i++) {
            if (m[i] < 1 || i > 0 && m[i] <= m[i - 1]) {
                throw new IllegalArgumentException("milestones must be positive and increasing, found "
                        + Arrays.toString(m));
            }
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("lr_decay_rate must be positive, found " + rate);
        }
        return new LearningRateSchedule(lr, m, rate, 0, warmup);
    }

    /** Cosine annealing of {@code lr} over {@code steps} steps, with {@code warmup} warm-up steps. */
    public static LearningRateSchedule cosine(double lr, long steps, long warmup) {
        if (steps < 1) {
            throw new IllegalArgumentException("a cosine schedule needs at least one step, found " + steps);
        }
        return new LearningRateSchedule(lr, new long[0], 1, steps, warmup);
    }

    /** The learning rate of step {@code step}, counted from 1. */
    public double at(long step) {
        if (step < 1) {
            throw new IllegalArgumentException("steps are counted from 1, found " + step);
        }
        double warm = step < warmup ? (double) step / warmup : 1;
        return lr * warm * decay(step - 1);
    }

    private double decay(long completed) {
        if (cosineSteps > 0) {
            return (1 + Math.cos(Math.PI * Math.min(completed, cosineSteps) / cosineSteps)) / 2;
        }
        int passed = 0;
        while (passed < milestones.length && milestones[passed] <= completed) {
            passed++;
        }
        return Math.pow(rate, passed);
    }
}
