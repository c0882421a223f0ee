package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.ConvGeometry;
import org.gridrun.engine.backend.Tensor;

/**
 * A 2-D convolution of channels-last images: the backend's {@code convolve} (im2col and a matrix product with the
 * {@code filters × (kernel·kernel·channels)} weights, chunk by chunk), plus an optional bias per filter.
 *
 * <p>The weights are stored filter by filter, each filter's window kernel row by kernel column with the input
 * channels together (the order im2col writes), so its tensor shape is {@code [filters, kH, kW, channels]}. A
 * 1×1 convolution with stride 1 and no padding skips the unfolding: its input already is the patch matrix.
 * The backend's {@code convolveWeightGradient} and {@code convolveDataGradient} give the gradients.
 */
final class Conv extends Layer {
    private final ConvGeometry g;
    private final int filters;
    private final Slot weight;
    private final Slot bias;
    private final boolean pointwise;
    private Tensor x;

    Conv(Shape in, ConvGeometry g, int filters, Slot weight, Slot bias) {
        super(in, new Shape(g.outHeight(), g.outWidth(), filters));
        this.g = g;
        this.filters = filters;
        this.weight = weight;
        this.bias = bias;
        this.pointwise = g.kernelHeight() == 1 && g.kernelWidth() == 1 && g.stride() == 1 && g.padding() == 0;
    }

    @Override
    Tensor forward(Context ctx, Tensor x) {
        this.x = x;
        Tensor y = output(x.rows());
        Tensor yMatrix = y.reshape(x.rows() * g.outPositions(), filters);
        if (pointwise) {
            ctx.backend.gemm(false, true, 1f, x.reshape(yMatrix.rows(), g.patchSize()), weight.of(ctx.parameters),
                    0f, yMatrix);
        } else {
            ctx.backend.convolve(x, g, weight.of(ctx.parameters), yMatrix);
        }
        if (bias != null) {
            ctx.backend.addRowVector(bias.of(ctx.parameters), yMatrix);
        }
        return y;
    }

    @Override
    Tensor backward(Context ctx, Tensor dy, boolean needInput) {
        int rows = x.rows() * g.outPositions();
        Tensor dyMatrix = dy.reshape(rows, filters);
        if (bias != null) {
            ctx.backend.columnSums(dyMatrix, 0f, bias.of(ctx.gradient));
        }
        Tensor dx = needInput ? inputGradient(x.rows()) : null;
        if (!pointwise) {
            ctx.backend.convolveBackward(x, g, dyMatrix, weight.of(ctx.parameters), weight.of(ctx.gradient), dx);
            return dx;
        }
        ctx.backend.gemm(true, false, 1f, dyMatrix, x.reshape(rows, g.patchSize()), 0f, weight.of(ctx.gradient));
        if (dx != null) {
            ctx.backend.gemm(false, false, 1f, dyMatrix, weight.of(ctx.parameters), 0f, dx.reshape(rows,
                    g.patchSize()));
        }
        return dx;
    }
}
