package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * A fully connected layer {@code y = x·Wᵀ + b}, with W stored {@code outputs × inputs} as {@code nn.Linear}: over
 * all values of an example flattened, or, per position, over each position's channels (a transformer's per-token
 * linear layer, {@code nn.Linear} on a {@code [batch, tokens, channels]} tensor).
 */
final class Linear extends Layer {
    private final Slot weight;
    private final Slot bias;
    private final int positions;
    private Tensor x;

    Linear(Shape in, int outputs, Slot weight, Slot bias) {
        super(in, Shape.flat(outputs));
        this.weight = weight;
        this.bias = bias;
        this.positions = 1;
    }

    /** The per-position layer: {@code outputs} channels at each position of {@code in}. */
    Linear(Shape in, Slot weight, Slot bias, int outputs) {
        super(in, new Shape(in.height(), in.width(), outputs));
        this.weight = weight;
        this.bias = bias;
        this.positions = in.positions();
    }

    /** {@code t} (rows × values) as one row per position. */
    private Tensor rowsOf(Tensor t, int cols) {
        return positions == 1 ? t : t.reshape(t.rows() * positions, cols);
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        this.x = x;
        Tensor y = rowsOf(output(x.rows()), out().channels());
        ctx.backend.gemm(false, true, 1f, rowsOf(x, weight.cols()), weight.of(ctx.parameters), 0f, y);
        if (bias != null) {
            ctx.backend.addRowVector(bias.of(ctx.parameters), y);
        }
        return output(x.rows());
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        Tensor dyRows = rowsOf(dy, weight.rows());
        ctx.backend.gemm(true, false, 1f, dyRows, rowsOf(x, weight.cols()), 0f, weight.of(ctx.gradient));
        if (bias != null) {
            ctx.backend.columnSums(dyRows, 0f, bias.of(ctx.gradient));
        }
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(x.rows());
        ctx.backend.gemm(false, false, 1f, dyRows, weight.of(ctx.parameters), 0f, rowsOf(dx, weight.cols()));
        return dx;
    }
}
