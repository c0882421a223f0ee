package org.gridrun.engine.model.nn;

import java.util.List;
import org.gridrun.engine.backend.ConvGeometry;
import org.gridrun.engine.backend.Tensor;

/**
 * A residual block {@code relu(main(x) + shortcut(x))}: the identity shortcut when shapes agree, else He et al.'s
 * option A (every stride-th pixel, the channels zero-padded equally on both sides), which has no parameters.
 *
 * <p>The main path's last layer must leave its output reusable (a batch norm): the shortcut is added into it in
 * place and the ReLU applied there. The backward pass overwrites {@code dy} with the gradient before that ReLU.
 */
final class Residual extends Layer {
    private final List<Layer> main;
    private final ConvGeometry shortcut;
    private final int padBefore;
    private Tensor shortcutOutput;
    private Tensor shortcutGradient;
    private Tensor y;

    /** {@code shortcut} is null for the identity; else the subsampling geometry of option A. */
    Residual(Shape in, List<Layer> main, ConvGeometry shortcut) {
        super(in, main.get(main.size() - 1).out());
        if (!main.get(main.size() - 1).outputReusable() || main.get(main.size() - 1).inPlace()) {
            throw new IllegalArgumentException("a residual block's main path must end in a layer with its own "
                    + "reusable output");
        }
        this.main = List.copyOf(main);
        this.shortcut = shortcut;
        this.padBefore = shortcut == null ? 0 : (out().channels() - in.channels()) / 2;
        if (shortcut == null && !in.equals(out())) {
            throw new IllegalArgumentException("an identity shortcut needs equal shapes, found " + in + " and "
                    + out());
        }
    }

    @Override
    void allocate(Context ctx, int capacity) {
        for (Layer layer : main) {
            layer.allocate(ctx, capacity);
        }
        if (shortcut != null) {
            shortcutOutput = own(ctx, capacity, out().size());
            shortcutGradient = own(ctx, capacity, in().size());
        }
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        Tensor h = x;
        for (Layer layer : main) {
            h = layer.forward(ctx, h);
        }
        if (shortcut == null) {
            ctx.backend.axpy(1f, x, h);
        } else {
            Tensor s = rows(shortcutOutput, x.rows());
            ctx.backend.shortcut(x, shortcut, out().channels(), padBefore, s);
            ctx.backend.axpy(1f, s, h);
        }
        ctx.backend.relu(h, h);
        y = h;
        return h;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        ctx.backend.reluBackward(y, dy);
        Tensor g = dy;
        for (int i = main.size() - 1; i >= 0; i--) {
            g = main.get(i).backward(ctx, g, needInput || i > 0);
        }
        if (!needInput) {
            return null;
        }
        if (shortcut == null) {
            ctx.backend.axpy(1f, dy, g);
        } else {
            Tensor s = rows(shortcutGradient, dy.rows());
            ctx.backend.shortcutBackward(dy, shortcut, out().channels(), padBefore, s);
            ctx.backend.axpy(1f, s, g);
        }
        return g;
    }

    @Override
    boolean outputReusable() {
        return false;
    }

    @Override
    public void close() {
        main.forEach(Layer::close);
        super.close();
    }
}
