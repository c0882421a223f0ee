package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.ConvGeometry;
import org.gridrun.engine.backend.Tensor;

/**
 * Max pooling over windows of channels-last images ({@code max_pool2d}), which may reach into a padding whose
 * positions never win.
 */
final class MaxPool extends Layer {
    private final ConvGeometry g;
    private Tensor x;
    private Tensor y;

    MaxPool(Shape in, ConvGeometry g) {
        super(in, new Shape(g.outHeight(), g.outWidth(), in.channels()));
        this.g = g;
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        this.x = x;
        y = output(x.rows());
        ctx.backend.maxPool(x, g, y);
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(x.rows());
        ctx.backend.maxPoolBackward(x, y, dy, g, dx);
        return dx;
    }

    @Override
    boolean outputReusable() {
        return false;
    }
}
