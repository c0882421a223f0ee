package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * {@code max(x, 0)}: in place over its input when the layer before does not need its own output back, and then its
 * backward pass also works in place on the incoming gradient.
 */
final class Relu extends Layer {
    private final boolean inPlace;
    private Tensor y;

    Relu(Shape shape, boolean inPlace) {
        super(shape, shape);
        this.inPlace = inPlace;
    }

    @Override
    void allocate(Context ctx, int capacity) {
        if (!inPlace) {
            super.allocate(ctx, capacity);
        }
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        y = inPlace ? x : output(x.rows());
        ctx.backend.relu(x, y);
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (!needInput) {
            return null;
        }
        Tensor dx = dy;
        if (!inPlace) {
            dx = inputGradient(dy.rows());
            ctx.backend.copy(dy, dx);
        }
        ctx.backend.reluBackward(y, dx);
        return dx;
    }

    @Override
    boolean outputReusable() {
        return false;
    }

    @Override
    boolean inPlace() {
        return inPlace;
    }
}
