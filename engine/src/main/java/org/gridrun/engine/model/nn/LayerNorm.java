package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * Layer normalisation of each position's channels ({@code nn.LayerNorm(channels)}, eps {@value #EPS}): every token
 * of a transformer normalised over its own features, with a learned scale and shift per channel.
 */
final class LayerNorm extends Layer {
    /** PyTorch's default {@code nn.LayerNorm} eps. */
    static final float EPS = 1e-5f;

    private final Slot gamma;
    private final Slot beta;
    private Tensor mean;
    private Tensor invStd;
    private Tensor x;

    LayerNorm(Shape shape, Slot gamma, Slot beta) {
        super(shape, shape);
        this.gamma = gamma;
        this.beta = beta;
    }

    @Override
    void allocate(Context ctx, int capacity) {
        super.allocate(ctx, capacity);
        mean = own(ctx, capacity * in().positions(), 1);
        invStd = own(ctx, capacity * in().positions(), 1);
    }

    /** {@code t} as one row per position. */
    private Tensor tokens(Tensor t) {
        return t.reshape(t.rows() * in().positions(), in().channels());
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        this.x = x;
        Tensor y = output(x.rows());
        int rows = x.rows() * in().positions();
        ctx.backend.layerNorm(tokens(x), gamma.of(ctx.parameters), beta.of(ctx.parameters), EPS, rows(mean, rows),
                rows(invStd, rows), tokens(y));
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        Tensor dx = needInput ? inputGradient(x.rows()) : null;
        int rows = x.rows() * in().positions();
        ctx.backend.layerNormBackward(tokens(x), tokens(dy), gamma.of(ctx.parameters), rows(mean, rows),
                rows(invStd, rows), gamma.of(ctx.gradient), beta.of(ctx.gradient), dx == null ? null : tokens(dx));
        return dx;
    }
}
