package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/** The first token of each example (a Vision Transformer's class token), as flat features. */
final class FirstToken extends Layer {
    FirstToken(Shape in) {
        super(in, Shape.flat(in.channels()));
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        Tensor y = output(x.rows());
        ctx.backend.copyColumns(x, 0, y, 0, in().channels());
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(dy.rows());
        ctx.backend.fill(dx, 0f);
        ctx.backend.copyColumns(dy, 0, dx, 0, in().channels());
        return dx;
    }
}
