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
 *
 * <p>The input gradient of a stride-1 "same" convolution (square kernel, padding (k − 1)/2) is itself such a
 * convolution, of the output gradient with the kernels turned by 180°: unfolding the output gradient and one
 * matrix product with k·k·filters terms per value replaces the product with only {@code filters} terms and the
 * col2im scatter, for the same arithmetic. Other convolutions take the product into the context's scratch and
 * col2im.
 */
final class Conv extends Layer {
    private final ConvGeometry g;
    private final int filters;
    private final Slot weight;
    private final Slot bias;
    private final boolean pointwise;
    private final ConvGeometry transposed;
    private Tensor flipped;
    private Tensor x;

    Conv(Shape in, ConvGeometry g, int filters, Slot weight, Slot bias) {
        super(in, new Shape(g.outHeight(), g.outWidth(), filters));
        this.g = g;
        this.filters = filters;
        this.weight = weight;
        this.bias = bias;
        this.pointwise = g.kernelHeight() == 1 && g.kernelWidth() == 1 && g.stride() == 1 && g.padding() == 0;
        boolean same = g.stride() == 1 && g.kernelHeight() == g.kernelWidth() && 2 * g.padding() + 1
                == g.kernelHeight();
        this.transposed = same && !pointwise ? new ConvGeometry(g.outHeight(), g.outWidth(), filters,
                g.kernelHeight(), g.kernelWidth(), 1, g.padding()) : null;
    }

    @Override
    void allocate(Context ctx, int capacity) {
        super.allocate(ctx, capacity);
        if (transposed != null) {
            flipped = own(ctx, g.channels(), transposed.patchSize());
        } else if (!pointwise) {
            ctx.reserveScratch(capacity * g.outPositions() * g.patchSize());
        }
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
        if (pointwise) {
            ctx.backend.gemm(true, false, 1f, dyMatrix, x.reshape(rows, g.patchSize()), 0f, weight.of(ctx.gradient));
        } else {
            ctx.backend.convolveWeightGradient(x, g, dyMatrix, weight.of(ctx.gradient));
        }
        if (bias != null) {
            ctx.backend.columnSums(dyMatrix, 0f, bias.of(ctx.gradient));
        }
        if (!needInput) {
            return null;
        }
        Tensor dx = inputGradient(x.rows());
        if (pointwise) {
            ctx.backend.gemm(false, false, 1f, dyMatrix, weight.of(ctx.parameters), 0f, dx.reshape(rows,
                    g.patchSize()));
        } else if (transposed != null) {
            ctx.backend.flipKernels(weight.of(ctx.parameters).reshape(filters, g.patchSize()), g, flipped);
            ctx.backend.convolve(dy, transposed, flipped, dx.reshape(x.rows() * g.inputSize() / g.channels(),
                    g.channels()));
        } else {
            Tensor cols = ctx.scratch(rows, g.patchSize());
            ctx.backend.gemm(false, false, 1f, dyMatrix, weight.of(ctx.parameters), 0f, cols);
            ctx.backend.col2im(cols, g, dx);
        }
        return dx;
    }
}
