package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * Inverted dropout in training, the identity in evaluation: {@code Dropout}, or {@code Dropout2d} (whole channels of
 * an image) when {@code perChannel}.
 *
 * <p>Always in place. The mask is a pure function of the model's seed, this layer's index and the context's noise
 * key, which the trainer sets from the worker and step: a resumed run draws the same masks, and the backward pass
 * applies the forward's mask by running the same operation on the gradient.
 */
final class Dropout extends Layer {
    private final float p;
    private final boolean perChannel;
    private final int index;
    private boolean applied;

    Dropout(Shape shape, double p, boolean perChannel, int index) {
        super(shape, shape);
        if (!(p >= 0 && p < 1)) {
            throw new IllegalArgumentException("dropout probability must be in [0, 1), found " + p);
        }
        this.p = (float) p;
        this.perChannel = perChannel;
        this.index = index;
    }

    @Override
    void allocate(Context ctx, int capacity) {
    }

    private void apply(Context ctx, Tensor t) {
        ctx.backend.dropout(t, p, perChannel ? in().channels() : 0, ctx.dropoutSeed(index), ctx.noise, t);
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        applied = ctx.training && p > 0;
        if (applied) {
            apply(ctx, x);
        }
        return x;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (!needInput) {
            return null;
        }
        if (applied) {
            apply(ctx, dy);
        }
        return dy;
    }

    @Override
    boolean inPlace() {
        return true;
    }
}
