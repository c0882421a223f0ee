package org.gridrun.engine.model.nn;

import java.util.List;
import org.gridrun.engine.backend.Tensor;

/**
 * A residual block {@code main(x) + shortcut(x)}, followed by a ReLU when {@code relu} (the post-activation blocks of
 * He et al. and torchvision; the pre-activation blocks of a wide ResNet end in the sum). The shortcut is a list of
 * layers: empty for the identity, an {@link OptionAShortcut}, or a projection (a strided 1×1 conv and a batch norm).
 *
 * <p>The main path's last layer must have its own reusable output (a batch norm, a conv): the shortcut is added
 * into it in place, and the ReLU applied there. With the ReLU, the backward pass overwrites {@code dy} with the
 * gradient before it; without, the block leaves {@code dy} alone and its output is reusable. The shortcut's layers
 * always write their parameter gradients, also when the block's input gradient is not needed.
 */
final class Residual extends Layer {
    private final List<Layer> main;
    private final List<Layer> shortcut;
    private final boolean relu;
    private Tensor y;

    Residual(Shape in, List<Layer> main, List<Layer> shortcut, boolean relu) {
        super(in, main.get(main.size() - 1).out());
        Layer last = main.get(main.size() - 1);
        if (!last.outputReusable() || last.inPlace()) {
            throw new IllegalArgumentException("a residual block's main path must end in a layer with its own "
                    + "reusable output, found " + last.getClass().getSimpleName());
        }
        Shape shortcutOut = shortcut.isEmpty() ? in : shortcut.get(shortcut.size() - 1).out();
        if (!shortcutOut.equals(out())) {
            throw new IllegalArgumentException("a residual block's shortcut must output the main path's shape "
                    + out() + ", found " + shortcutOut);
        }
        this.main = List.copyOf(main);
        this.shortcut = List.copyOf(shortcut);
        this.relu = relu;
    }

    @Override
    void allocate(Context ctx, int capacity) {
        main.forEach(layer -> layer.allocate(ctx, capacity));
        shortcut.forEach(layer -> layer.allocate(ctx, capacity));
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        Tensor h = x;
        for (Layer layer : main) {
            h = layer.forward(ctx, h);
        }
        Tensor s = x;
        for (Layer layer : shortcut) {
            s = layer.forward(ctx, s);
        }
        if (relu) {
            ctx.backend.addRelu(s, h);
        } else {
            ctx.backend.axpy(1f, s, h);
        }
        y = h;
        return h;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        if (relu) {
            ctx.backend.reluBackward(y, dy);
        }
        Tensor g = dy;
        for (int i = main.size() - 1; i >= 0; i--) {
            g = main.get(i).backward(ctx, g, needInput || i > 0);
        }
        Tensor s = dy;
        for (int i = shortcut.size() - 1; i >= 0; i--) {
            s = shortcut.get(i).backward(ctx, s, needInput || i > 0);
        }
        if (!needInput) {
            return null;
        }
        ctx.backend.axpy(1f, s, g);
        return g;
    }

    @Override
    boolean outputReusable() {
        return !relu;
    }

    @Override
    public void close() {
        main.forEach(Layer::close);
        shortcut.forEach(Layer::close);
        super.close();
    }
}
