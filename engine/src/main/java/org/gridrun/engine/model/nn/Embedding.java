package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * A word embedding, {@code nn.Embedding}: each input row holds one token id (as a float) and becomes that row of
 * the table.
 *
 * <p>When the decoder shares the table (a {@link Linear} over this slot, {@link NetBuilder#tiedDecoder}), the
 * decoder's backward pass, which runs first, writes the table's gradient and this one adds to it; otherwise this
 * one zeroes it first.
 */
final class Embedding extends Layer {
    private final Slot table;
    private boolean tied;
    private Tensor ids;

    Embedding(Slot table) {
        super(Shape.flat(1), Shape.flat(table.cols()));
        this.table = table;
    }

    Slot table() {
        return table;
    }

    /** Marks the table as shared with a decoder whose gradient this layer's backward pass adds to. */
    void tie() {
        tied = true;
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        ids = x;
        Tensor y = output(x.rows());
        ctx.backend.embedding(table.of(ctx.parameters), x, y);
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        Tensor grad = table.of(ctx.gradient);
        if (!tied) {
            ctx.backend.fill(grad, 0f);
        }
        ctx.backend.embeddingBackward(dy, ids, grad);
        return null;
    }
}
