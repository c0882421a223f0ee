package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.ConvGeometry;
import org.gridrun.engine.backend.Tensor;

/**
 * He et al.'s option-A shortcut as a layer: every stride-th pixel, the channels zero-padded equally on both sides
 * to {@code outChannels}; no parameters. It is the shortcut branch of a CIFAR ResNet's {@link Residual} block where
 * the shape changes.
 */
final class OptionAShortcut extends Layer {
    private final ConvGeometry g;
    private final int padBefore;

    OptionAShortcut(Shape in, int stride, int outChannels) {
        super(in, new Shape((in.height() - 1) / stride + 1, (in.width() - 1) / stride + 1, outChannels));
        this.g = new ConvGeometry(in.height(), in.width(), in.channels(), 1, 1, stride, 0);
        this.padBefore = (outChannels - in.channels()) / 2;
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        Tensor y = output(x.rows());
        ctx.backend.shortcut(x, g, out().channels(), padBefore, y);
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(dy.rows());
        ctx.backend.shortcutBackward(dy, g, out().channels(), padBefore, dx);
        return dx;
    }
}
