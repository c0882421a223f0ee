package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * {@code max(x, 0)}: in place over its input when the layer before does not need its own output back, and then its
 * backward pass also works in place on the incoming gradient.
 */
final class Relu extends Layer {
    private final boolean inPlace;
    private Tensor output;
    private Tensor inputGradient;
    private Tensor y;

    Relu(Shape shape, boolean inPlace) {
        super(shape, shape);
        this.inPlace = inPlace;
    }

    @Override
    void allocate(Context ctx, int capacity) {
        if (!inPlace) {
            output = own(ctx, capacity, in().size());
            inputGradient = own(ctx, capacity, in().size());
        }
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        y = inPlace ? x : rows(output, x.rows());
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
            dx = rows(inputGradient, dy.rows());
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
