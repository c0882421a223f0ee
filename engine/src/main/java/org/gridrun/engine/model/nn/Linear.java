package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/** A fully connected layer {@code y = x·Wᵀ + b}, with W stored {@code outputs × inputs} as {@code nn.Linear}. */
final class Linear extends Layer {
    private final Slot weight;
    private final Slot bias;
    private Tensor x;

    Linear(Shape in, int outputs, Slot weight, Slot bias) {
        super(in, Shape.flat(outputs));
        this.weight = weight;
        this.bias = bias;
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        this.x = x;
        Tensor y = output(x.rows());
        ctx.backend.gemm(false, true, 1f, x, weight.of(ctx.parameters), 0f, y);
        if (bias != null) {
            ctx.backend.addRowVector(bias.of(ctx.parameters), y);
        }
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        ctx.backend.gemm(true, false, 1f, dy, x, 0f, weight.of(ctx.gradient));
        if (bias != null) {
            ctx.backend.columnSums(dy, 0f, bias.of(ctx.gradient));
        }
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(x.rows());
        ctx.backend.gemm(false, false, 1f, dy, weight.of(ctx.parameters), 0f, dx);
        return dx;
    }
}
