package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * The GELU {@code x·Φ(x)} in its exact erf form, PyTorch's default {@code nn.GELU()} (not the tanh approximation).
 * Its backward pass reads its input, which the layer before keeps.
 */
final class Gelu extends Layer {
    private Tensor x;

    Gelu(Shape shape) {
        super(shape, shape);
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        this.x = x;
        Tensor y = output(x.rows());
        ctx.backend.gelu(x, y);
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(dy.rows());
        ctx.backend.geluBackward(x, dy, dx);
        return dx;
    }
}
