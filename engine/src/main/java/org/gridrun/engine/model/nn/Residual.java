package org.gridrun.engine.model.nn;

import java.util.List;
import org.gridrun.engine.backend.ConvGeometry;
import org.gridrun.engine.backend.Tensor;

/**
 * A residual block {@code relu(main(x) + shortcut(x))}: the identity shortcut when shapes agree, else He et al.'s
 * option A (every stride-th pixel, the channels zero-padded equally on both sides), which has no parameters, or a
 * projection made of layers (torchvision's {@code downsample}: a strided 1×1 convolution and a batch norm).
 *
 * <p>The main path's last layer must leave its output reusable (a batch norm): the shortcut is added into it in
 * place and the ReLU applied there. The backward pass overwrites {@code dy} with the gradient before that ReLU.
 */
final class Residual extends Layer {
    private final List<Layer> main;
    private final ConvGeometry shortcut;
    private final List<Layer> projection;
    private final int padBefore;
    private Tensor shortcutOutput;
    private Tensor shortcutGradient;
    private Tensor y;

    /** {@code shortcut} is null for the identity; else the subsampling geometry of option A. */
    Residual(Shape in, List<Layer> main, ConvGeometry shortcut) {
        this(in, main, shortcut, null);
    }

    /** {@code projection} is null for the identity; else the layers that map the input to the output's shape. */
    Residual(Shape in, List<Layer> main, List<Layer> projection) {
        this(in, main, null, projection);
        if (projection != null && !projection.get(projection.size() - 1).out().equals(out())) {
            throw new IllegalArgumentException("a projection must output " + out() + ", found "
                    + projection.get(projection.size() - 1).out());
        }
    }

    private Residual(Shape in, List<Layer> main, ConvGeometry shortcut, List<Layer> projection) {
        super(in, main.get(main.size() - 1).out());
        if (!main.get(main.size() - 1).outputReusable() || main.get(main.size() - 1).inPlace()) {
            throw new IllegalArgumentException("a residual block's main path must end in a layer with its own "
                    + "reusable output");
        }
        this.main = List.copyOf(main);
        this.shortcut = shortcut;
        this.projection = projection == null ? null : List.copyOf(projection);
        this.padBefore = shortcut == null ? 0 : (out().channels() - in.channels()) / 2;
        if (shortcut == null && projection == null && !in.equals(out())) {
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
        if (projection != null) {
            for (Layer layer : projection) {
                layer.allocate(ctx, capacity);
            }
        }
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        Tensor h = x;
        for (Layer layer : main) {
            h = layer.forward(ctx, h);
        }
        if (projection != null) {
            Tensor s = x;
            for (Layer layer : projection) {
                s = layer.forward(ctx, s);
            }
            ctx.backend.axpy(1f, s, h);
        } else if (shortcut == null) {
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
        if (projection != null) {
            Tensor p = dy;
            for (int i = projection.size() - 1; i >= 0; i--) {
                p = projection.get(i).backward(ctx, p, needInput || i > 0);
            }
            if (needInput) {
                ctx.backend.axpy(1f, p, g);
            }
            return needInput ? g : null;
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
        if (projection != null) {
            projection.forEach(Layer::close);
        }
        super.close();
    }
}
