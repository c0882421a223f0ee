package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Tensor;

/**
 * Batch normalisation per channel ({@code BatchNorm2d}, or {@code BatchNorm1d} on flat features), PyTorch's
 * defaults: {@code eps} 1e-5, running statistics with momentum 0.1 updated by every training forward.
 *
 * <p>Training uses the batch's statistics over every example and position; evaluation the running ones, which
 * live in the model's statistics vector and are checkpointed with it.
 *
 * <p>A ReLU right after it is fused in ({@link #fuseRelu}): the backend's {@code batchNormRelu} writes
 * {@code max(y, 0)} in the normalising pass, and {@code batchNormReluBackward} masks the gradient, to the bits of the
 * two layers apart. The output is then kept for the backward pass, like a ReLU's.
 */
final class BatchNorm extends Layer {
    static final float EPS = 1e-5f;
    static final float MOMENTUM = 0.1f;

    private final Slot gamma;
    private final Slot beta;
    private final Slot runningMean;
    private final Slot runningVar;
    private Tensor mean;
    private Tensor invStd;
    private Tensor x;
    private Tensor y;
    private boolean relu;

    BatchNorm(Shape shape, Slot gamma, Slot beta, Slot runningMean, Slot runningVar) {
        super(shape, shape);
        this.gamma = gamma;
        this.beta = beta;
        this.runningMean = runningMean;
        this.runningVar = runningVar;
    }

    /** Takes the ReLU that follows into this layer. */
    void fuseRelu() {
        relu = true;
    }

    /** Whether a ReLU is fused in. */
    boolean fusedRelu() {
        return relu;
    }

    @Override
    void allocate(Context ctx, int capacity) {
        super.allocate(ctx, capacity);
        mean = own(ctx, 1, in().channels());
        invStd = own(ctx, 1, in().channels());
    }

    private Tensor columns(Tensor t) {
        return t.reshape(t.rows() * in().positions(), in().channels());
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        this.x = x;
        y = output(x.rows());
        if (ctx.training && relu) {
            ctx.backend.batchNormRelu(columns(x), gamma.of(ctx.parameters), beta.of(ctx.parameters), EPS, mean,
                    invStd, runningMean.of(ctx.statistics), runningVar.of(ctx.statistics), MOMENTUM, columns(y));
        } else if (ctx.training) {
            ctx.backend.batchNorm(columns(x), gamma.of(ctx.parameters), beta.of(ctx.parameters), EPS, mean, invStd,
                    runningMean.of(ctx.statistics), runningVar.of(ctx.statistics), MOMENTUM, columns(y));
        } else {
            ctx.backend.batchNormInference(columns(x), gamma.of(ctx.parameters), beta.of(ctx.parameters),
                    runningMean.of(ctx.statistics), runningVar.of(ctx.statistics), EPS, columns(y));
            if (relu) {
                ctx.backend.relu(y, y);
            }
        }
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        Tensor dx = needInput ? inputGradient(x.rows()) : null;
        if (relu) {
            ctx.backend.batchNormReluBackward(columns(x), columns(y), columns(dy), gamma.of(ctx.parameters), mean,
                    invStd, gamma.of(ctx.gradient), beta.of(ctx.gradient), dx == null ? null : columns(dx));
        } else {
            ctx.backend.batchNormBackward(columns(x), columns(dy), gamma.of(ctx.parameters), mean, invStd,
                    gamma.of(ctx.gradient), beta.of(ctx.gradient), dx == null ? null : columns(dx));
        }
        return dx;
    }

    @Override
    boolean outputReusable() {
        return !relu;
    }
}
