package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * A Vision Transformer's token embedding after the patches: a learned class token put before each example's
 * patch tokens, and a learned position embedding added to every token (the class token's included).
 *
 * <p>The output is one row of {@code (patches + 1) × channels} values per example; the position embedding is
 * stored {@code [patches + 1, channels]} (a matrix to the compressors), the class token {@code [channels]}. The
 * backward pass needs neither input nor output: the position gradient is the column sums of the output gradient,
 * the class token's its first {@code channels} of those.
 */
final class ClassToken extends Layer {
    private final Slot token;
    private final Slot positions;
    private Tensor added;

    ClassToken(Shape in, Slot token, Slot positions) {
        super(in, new Shape(1, in.positions() + 1, in.channels()));
        this.token = token;
        this.positions = positions;
    }

    @Override
    void allocate(Context ctx, int capacity) {
        super.allocate(ctx, capacity);
        added = own(ctx, 1, out().size());
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        int c = in().channels();
        Tensor y = output(x.rows());
        ctx.backend.fill(y, 0f);
        ctx.backend.copyColumns(x, 0, y, c, in().size());
        ctx.backend.copy(positions.of(ctx.parameters), added);
        ctx.backend.axpy(1f, token.of(ctx.parameters), added.view(0, 1, c));
        ctx.backend.addRowVector(added, y);
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        int c = in().channels();
        Tensor positionGradient = positions.of(ctx.gradient);
        ctx.backend.columnSums(dy, 0f, positionGradient);
        ctx.backend.copy(positionGradient.view(0, 1, c), token.of(ctx.gradient));
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(dy.rows());
        ctx.backend.copyColumns(dy, c, dx, 0, in().size());
        return dx;
    }
}
