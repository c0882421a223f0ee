package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/** Global average pooling: each channel's mean over all positions, giving flat features. */
final class MeanPool extends Layer {
    MeanPool(Shape in) {
        super(in, Shape.flat(in.channels()));
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        Tensor y = output(x.rows());
        ctx.backend.meanPool(x, in().channels(), y);
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(dy.rows());
        ctx.backend.meanPoolBackward(dy, in().channels(), dx);
        return dx;
    }
}
