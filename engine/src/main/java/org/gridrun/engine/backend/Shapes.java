package org.gridrun.engine.backend;

/**
 * The shape checks every backend makes before an operation, so that each backend fails a wrong call with the same
 * message before it touches memory.
 */
public final class Shapes {
    private Shapes() {
    }

    /** The number of images in {@code x}, whose rows must each hold one image of {@code imageSize} values. */
    public static int images(Tensor x, int imageSize) {
        if (x.cols() != imageSize) {
            throw new IllegalArgumentException("expected rows of " + imageSize + " values (one image each), found "
                    + x);
        }
        return x.rows();
    }

    /**
     * The number of images of a convolution and its gradients: {@code images} holds one image of
     * {@code g.inputSize()} values a row (the input, or its gradient), {@code weights} one filter of
     * {@code g.patchSize()} values a row, and {@code outputs} (the output, or its gradient) one row per output position
     * of every image with one value per filter.
     */
    public static int convolution(Tensor images, ConvGeometry g, Tensor weights, Tensor outputs) {
        int n = images(images, g.inputSize());
        requireShape(weights, weights.rows(), g.patchSize());
        requireShape(outputs, n * g.outPositions(), weights.rows());
        return n;
    }

    public static int positions(Tensor x, int channels) {
        if (channels < 1 || x.cols() % channels != 0) {
            throw new IllegalArgumentException(x + " rows do not hold whole pixels of " + channels + " channels");
        }
        return x.cols() / channels;
    }

    public static void requireShape(Tensor t, int rows, int cols) {
        if (t.rows() != rows || t.cols() != cols) {
            throw new IllegalArgumentException("expected a " + rows + "x" + cols + " tensor, found " + t);
        }
    }

    public static void requireRows(int n, Tensor... rows) {
        for (Tensor row : rows) {
            requireRow(row, n);
        }
    }

    /**
     * Fails unless every window of {@code g} holds a position of the image: the padding must be at most half the
     * kernel, as PyTorch's {@code max_pool2d} requires.
     */
    public static void requirePoolWindow(ConvGeometry g) {
        if (2 * g.padding() > g.kernelHeight() || 2 * g.padding() > g.kernelWidth()) {
            throw new IllegalArgumentException("pooling padding must be at most half the kernel, found padding "
                    + g.padding() + " for a " + g.kernelHeight() + "x" + g.kernelWidth() + " window: " + g);
        }
    }

    public static void requireShortcut(ConvGeometry g, int outChannels, int before, Tensor out, int n) {
        if (before < 0 || before + g.channels() > outChannels) {
            throw new IllegalArgumentException(g.channels() + " channels at " + before + " do not fit "
                    + outChannels);
        }
        int outH = (g.height() - 1) / g.stride() + 1;
        int outW = (g.width() - 1) / g.stride() + 1;
        requireShape(out, n, outH * outW * outChannels);
    }

    public static void sameSize(Tensor a, Tensor b) {
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("tensor sizes differ: " + a + " and " + b);
        }
    }

    public static void requireRow(Tensor row, int n) {
        if (row.size() != n) {
            throw new IllegalArgumentException("expected a row of " + n + " values, found " + row);
        }
    }

    public static void requireLabels(Tensor logits, Tensor labels) {
        if (labels.size() != logits.rows()) {
            throw new IllegalArgumentException("expected " + logits.rows() + " labels, found " + labels);
        }
    }

    /**
     * The sizes {@code {m, n, k}} of {@code c ← op(a)·op(b)}, or a failure when {@code a}, {@code b} and {@code c}
     * do not agree.
     */
    public static int[] gemm(boolean transA, boolean transB, Tensor a, Tensor b, Tensor c) {
        int m = transA ? a.cols() : a.rows();
        int k = transA ? a.rows() : a.cols();
        int kb = transB ? b.cols() : b.rows();
        int n = transB ? b.rows() : b.cols();
        if (k != kb || c.rows() != m || c.cols() != n) {
            throw new IllegalArgumentException("gemm shapes do not agree: op(a) " + m + "x" + k + ", op(b) " + kb
                    + "x" + n + ", c " + c.rows() + "x" + c.cols());
        }
        return new int[] {m, n, k};
    }

    /** Fails unless {@code p} is a dropout probability and {@code channels} divides the rows of {@code x}. */
    public static void requireDropout(Tensor x, float p, int channels) {
        if (!(p >= 0f && p < 1f)) {
            throw new IllegalArgumentException("dropout probability must be in [0, 1), found " + p);
        }
        if (channels < 0 || channels > 0 && x.cols() % channels != 0) {
            throw new IllegalArgumentException(x + " rows do not hold whole pixels of " + channels + " channels");
        }
    }

    /** The checks of {@link Backend#batchNorm}: the number of channels. */
    public static int batchNorm(Tensor x, Tensor gamma, Tensor beta, Tensor mean, Tensor invStd, Tensor runningMean,
                                Tensor runningVar, Tensor y) {
        int c = x.cols();
        sameSize(x, y);
        requireRows(c, gamma, beta, mean, invStd);
        if (runningMean != null) {
            requireRows(c, runningMean, runningVar);
        }
        return c;
    }

    /** The checks of {@link Backend#batchNormBackward}: the number of channels. */
    public static int batchNormBackward(Tensor x, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd,
                                        Tensor dGamma, Tensor dBeta, Tensor dx) {
        int c = x.cols();
        sameSize(x, dy);
        if (dx != null) {
            sameSize(x, dx);
        }
        requireRows(c, gamma, mean, invStd, dGamma, dBeta);
        return c;
    }

    /** The checks of {@link Backend#maxPoolBackward}: the number of images. */
    public static int maxPoolBackward(Tensor x, Tensor y, Tensor dy, ConvGeometry g, Tensor dx) {
        requirePoolWindow(g);
        int n = images(x, g.inputSize());
        requireShape(y, n, g.outPositions() * g.channels());
        sameSize(y, dy);
        sameSize(x, dx);
        return n;
    }

    /** The checks of {@link Backend#sgdUpdate}: {@code velocity} is needed only with momentum. */
    public static void sgd(Tensor params, Tensor grad, Tensor velocity, float momentum) {
        sameSize(params, grad);
        if (momentum != 0f) {
            sameSize(params, velocity);
        }
    }

    /**
     * Checks the stacks of a batched product, each holding {@code count} matrices stacked by rows, and returns the
     * rows of one matrix of {@code a}, {@code b} and {@code c}.
     */
    public static int[] batchedRows(int count, Tensor a, Tensor b, Tensor c) {
        if (count < 1 || a.rows() % count != 0 || b.rows() % count != 0 || c.rows() % count != 0) {
            throw new IllegalArgumentException("a batched product needs " + count + " matrices in each of " + a
                    + ", " + b + ", " + c);
        }
        return new int[] {a.rows() / count, b.rows() / count, c.rows() / count};
    }

    /** Checks a layer norm's operands: {@code x} rows × n, {@code gamma}/{@code beta} 1 × n, statistics rows × 1. */
    public static int layerNorm(Tensor x, Tensor y, Tensor gamma, Tensor beta, Tensor mean, Tensor invStd) {
        sameSize(x, y);
        requireRows(x.cols(), gamma, beta);
        if (mean.size() != x.rows() || invStd.size() != x.rows()) {
            throw new IllegalArgumentException("a layer norm of " + x + " needs " + x.rows()
                    + " means and inverse deviations, found " + mean + " and " + invStd);
        }
        return x.cols();
    }

    /** Checks a column copy: same rows, both ranges inside their tensors. */
    public static void copyColumns(Tensor src, int srcColumn, Tensor dst, int dstColumn, int width) {
        if (src.rows() != dst.rows() || width < 0 || srcColumn < 0 || dstColumn < 0
                || srcColumn + width > src.cols() || dstColumn + width > dst.cols()) {
            throw new IllegalArgumentException("cannot copy " + width + " columns from " + srcColumn + " of " + src
                    + " to " + dstColumn + " of " + dst);
        }
    }

    /** Checks a swap of axes: both tensors hold {@code outer·a·b·inner} values. */
    public static void swapAxes(Tensor x, int outer, int a, int b, int inner, Tensor y) {
        long size = (long) outer * a * b * inner;
        if (outer < 1 || a < 1 || b < 1 || inner < 1 || x.size() != size || y.size() != size) {
            throw new IllegalArgumentException("cannot swap the axes of [" + outer + "][" + a + "][" + b + "]["
                    + inner + "] between " + x + " and " + y);
        }
    }

    /** Checks an embedding's table (v × e), ids (m × 1) and rows (m × e); returns nothing, fails naming the tensor. */
    public static void embedding(Tensor table, Tensor ids, Tensor rows) {
        requireShape(ids, rows.rows(), 1);
        if (rows.cols() != table.cols()) {
            throw new IllegalArgumentException("embedding rows " + rows + " do not match the table " + table);
        }
    }

    /** Checks an LSTM cell's tensors: gates b × 4h, the others b × h; returns h. */
    public static int lstmCell(Tensor gates, Tensor... states) {
        if (gates.cols() % 4 != 0) {
            throw new IllegalArgumentException("LSTM gates must be b x 4h, found " + gates);
        }
        int h = gates.cols() / 4;
        for (Tensor t : states) {
            requireShape(t, gates.rows(), h);
        }
        return h;
    }
}
