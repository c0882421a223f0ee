package org.gridrun.engine.backend;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.random.CounterRng;

/**
 * The CPU backend: tensors are float arrays on the Java heap and {@code gemm} is netlib BLAS {@code sgemm}.
 *
 * <p>netlib is column-major; a row-major matrix read column-major is its transpose, so the row-major product
 * {@code C = op(A)·op(B)} is computed as the column-major {@code Cᵀ = op(B)ᵀ·op(A)ᵀ}, arranged for the BLAS netlib
 * loaded (see {@code CpuGemm}). Every other operation is a plain loop. No operation allocates once the largest
 * shape has been seen, except inside netlib's Java Vector API {@code sgemm}, which packs into fresh buffers.
 */
public final class CpuBackend implements Backend {
    private final CpuGemm gemm = new CpuGemm(NetlibBlas.instance());
    private final Convolver convolution = ConvPaths.create(NetlibBlas.instance());
    private final List<CpuBuffer> buffers = new ArrayList<>();
    private final CpuNormKernels norm = new CpuNormKernels();
    private final CpuGemm[] batchGemms = {new CpuGemm(NetlibBlas.instance(), false),
        new CpuGemm(NetlibBlas.instance(), false)};

    /**
     * Whether this process's matrix products run on Debian's reference BLAS (a plain triple loop in float32, no
     * blocking): slow, and its long sequential sums are less accurate than OpenBLAS's or VectorBLAS's.
     */
    public static boolean referenceBlas() {
        return NetlibBlas.referenceInUse();
    }

    /** The name of the linear-algebra library the CPU backend uses, e.g. {@code netlib JNIBLAS (native)}. */
    public static String blasName() {
        return NetlibBlas.describe();
    }

    /** Which path the convolutions take, e.g. {@code oneDNN 3.11.0, 2 OpenMP threads}, and why not oneDNN. */
    public static String convolutionPath() {
        return ConvPaths.describe();
    }

    /** How many threads the CPU backend's loops use: one or two, as the machine has cores. */
    public static int threads() {
        return CpuParallel.threads();
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public String blas() {
        return blasName();
    }

    @Override
    public Tensor allocate(int rows, int cols) {
        if (rows < 0 || cols < 0 || (long) rows * cols > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("cannot allocate a " + rows + "x" + cols + " tensor");
        }
        CpuBuffer buffer = new CpuBuffer(rows * cols);
        buffers.add(buffer);
        return Tensor.owning(buffer, rows, cols);
    }

    @Override
    public void upload(float[] src, int srcOffset, Tensor dst) {
        System.arraycopy(src, srcOffset, data(dst), dst.offset(), dst.size());
    }

    @Override
    public void download(Tensor src, float[] dst, int dstOffset) {
        System.arraycopy(data(src), src.offset(), dst, dstOffset, src.size());
    }

    @Override
    public void copy(Tensor src, Tensor dst) {
        Shapes.sameSize(src, dst);
        System.arraycopy(data(src), src.offset(), data(dst), dst.offset(), src.size());
    }

    @Override
    public void fill(Tensor x, float value) {
        java.util.Arrays.fill(data(x), x.offset(), x.offset() + x.size(), value);
    }

    @Override
    public void fillUniform(Tensor x, float low, float high, long seed, long stream) {
        float[] d = data(x);
        CounterRng rng = new CounterRng(seed, stream);
        float width = high - low;
        for (int i = x.offset(), end = i + x.size(); i < end; i++) {
            d[i] = low + width * rng.nextFloat();
        }
    }

    @Override
    public void scale(float alpha, Tensor x) {
        float[] d = data(x);
        int o = x.offset();
        CpuParallel.forEach(x.size(), x.size(), (from, to) -> {
            for (int i = o + from, end = o + to; i < end; i++) {
                d[i] *= alpha;
            }
        });
    }

    @Override
    public void momentumInDouble(Tensor m, Tensor g, double beta) {
        Shapes.sameSize(m, g);
        float[] md = data(m);
        float[] gd = data(g);
        int mo = m.offset();
        int go = g.offset();
        for (int i = 0; i < m.size(); i++) {
            md[mo + i] = (float) (beta * md[mo + i] + (1 - beta) * gd[go + i]);
        }
    }

    @Override
    public void axpy(float alpha, Tensor x, Tensor y) {
        float[] xd = data(x);
        float[] yd = data(y);
        int xo = x.offset();
        int yo = y.offset();
        pairwise(x, y, (from, to) -> VectorElementwise.axpy(alpha, xd, xo, yd, yo, from, to), (from, to) -> {
            for (int i = from; i < to; i++) {
                yd[yo + i] += alpha * xd[xo + i];
            }
        });
    }

    /** The vector part of an elementwise pass over {@code [from, to)}; returns where its scalar loop takes over. */
    private interface VectorPart {
        int run(int from, int to);
    }

    /**
     * An elementwise pass over two tensors of one size, split over the threads: each part on vectors where they run
     * ({@link CpuVectors}), the rest by {@code scalar}'s loop, the same bits.
     */
    private static void pairwise(Tensor a, Tensor b, VectorPart vector, CpuParallel.Range scalar) {
        Shapes.sameSize(a, b);
        boolean vectors = CpuVectors.enabled;
        CpuParallel.forEach(a.size(), a.size(), (from, to) -> scalar.run(vectors ? vector.run(from, to) : from, to));
    }

    @Override
    public void addRelu(Tensor x, Tensor y) {
        float[] xd = data(x);
        float[] yd = data(y);
        int xo = x.offset();
        int yo = y.offset();
        pairwise(x, y, (from, to) -> VectorElementwise.addRelu(xd, xo, yd, yo, from, to), (from, to) -> {
            for (int i = from; i < to; i++) {
                yd[yo + i] = Math.max(yd[yo + i] + 1f * xd[xo + i], 0f);
            }
        });
    }

    @Override
    public void gemm(boolean transA, boolean transB, float alpha, Tensor a, Tensor b, float beta, Tensor c) {
        int[] mnk = Shapes.gemm(transA, transB, a, b, c);
        int m = mnk[0];
        int n = mnk[1];
        int k = mnk[2];
        if (m == 0 || n == 0) {
            return;
        }
        gemm.gemm(transA, transB, m, n, k, alpha, data(a), a.offset(), a.cols(), data(b), b.offset(), b.cols(), beta,
                data(c), c.offset());
    }

    @Override
    public void addRowVector(Tensor row, Tensor x) {
        Shapes.requireRow(row, x.cols());
        float[] r = data(row);
        float[] d = data(x);
        int n = x.cols();
        int ro = row.offset();
        int xo = x.offset();
        CpuParallel.forEach(x.rows(), x.size(), (from, to) -> {
            for (int i = from, base = xo + from * n; i < to; i++, base += n) {
                for (int j = 0; j < n; j++) {
                    d[base + j] += r[ro + j];
                }
            }
        });
    }

    @Override
    public void columnSums(Tensor x, float beta, Tensor out) {
        Shapes.requireRow(out, x.cols());
        float[] d = data(x);
        float[] o = data(out);
        int n = x.cols();
        int oo = out.offset();
        for (int j = 0; j < n; j++) {
            o[oo + j] = beta == 0f ? 0f : beta * o[oo + j];
        }
        for (int i = 0, base = x.offset(); i < x.rows(); i++, base += n) {
            for (int j = 0; j < n; j++) {
                o[oo + j] += d[base + j];
            }
        }
    }

    @Override
    public void relu(Tensor x, Tensor y) {
        float[] xd = data(x);
        float[] yd = data(y);
        int xo = x.offset();
        int yo = y.offset();
        pairwise(x, y, (from, to) -> VectorElementwise.relu(xd, xo, yd, yo, from, to), (from, to) -> {
            for (int i = from; i < to; i++) {
                yd[yo + i] = Math.max(xd[xo + i], 0f);
            }
        });
    }

    @Override
    public void reluBackward(Tensor y, Tensor grad) {
        float[] yd = data(y);
        float[] gd = data(grad);
        int yo = y.offset();
        int go = grad.offset();
        pairwise(y, grad, (from, to) -> VectorElementwise.reluBackward(yd, yo, gd, go, from, to), (from, to) -> {
            for (int i = from; i < to; i++) {
                gd[go + i] = reluPassed(yd[yo + i], gd[go + i]);
            }
        });
    }

    /**
     * {@code g} where the ReLU output {@code y} is positive, else +0 (also for a NaN {@code y}), by integer masking:
     * the select {@code y > 0 ? g : 0} compiled to a branch that mispredicts on the half-zero masks of a network.
     * With {@code t = bits(y) − 1}, y lies in (0, ∞] exactly when {@code 0 ≤ t < bits(∞)}.
     */
    private static float reluPassed(float y, float g) {
        int t = Float.floatToRawIntBits(y) - 1;
        int mask = ~(t >> 31) & ((t - 0x7f800000) >> 31);
        return Float.intBitsToFloat(Float.floatToRawIntBits(g) & mask);
    }

    @Override
    public double softmaxCrossEntropy(Tensor logits, Tensor labels, Tensor grad, float gradScale) {
        Shapes.requireLabels(logits, labels);
        if (grad != null) {
            Shapes.sameSize(logits, grad);
        }
        return CpuKernels.softmaxCrossEntropy(data(logits), logits.offset(), logits.rows(), logits.cols(),
                data(labels), labels.offset(), grad == null ? null : data(grad), grad == null ? 0 : grad.offset(),
                gradScale);
    }

    @Override
    public int countCorrect(Tensor logits, Tensor labels) {
        Shapes.requireLabels(logits, labels);
        return CpuKernels.countCorrect(data(logits), logits.offset(), logits.rows(), logits.cols(), data(labels),
                labels.offset());
    }

    @Override
    public void sgdUpdate(Tensor params, Tensor grad, Tensor velocity, float lr, float momentum, boolean nesterov,
                          float weightDecay) {
        Shapes.sgd(params, grad, velocity, momentum);
        float[] p = data(params);
        float[] g = data(grad);
        float[] v = momentum == 0f ? null : data(velocity);
        int po = params.offset();
        int go = grad.offset();
        int vo = momentum == 0f ? 0 : velocity.offset();
        CpuParallel.forEach(params.size(), params.size(), (from, to) -> CpuKernels.sgd(p, po + from, g, go + from, v,
                vo + from, to - from, lr, momentum, nesterov, weightDecay));
    }

    @Override
    public void im2col(Tensor x, ConvGeometry g, Tensor cols) {
        int n = Shapes.images(x, g.inputSize());
        Shapes.requireShape(cols, n * g.outPositions(), g.patchSize());
        float[] xd = data(x);
        float[] cd = data(cols);
        CpuParallel.forEach(n, cols.size(), (from, to) -> CpuWindowKernels.im2col(xd, x.offset(), g, cd,
                cols.offset(), from, to));
    }

    @Override
    public void col2im(Tensor cols, ConvGeometry g, Tensor dx) {
        int n = Shapes.images(dx, g.inputSize());
        Shapes.requireShape(cols, n * g.outPositions(), g.patchSize());
        float[] cd = data(cols);
        float[] dd = data(dx);
        CpuParallel.forEach(n, cols.size(), (from, to) -> CpuWindowKernels.col2im(cd, cols.offset(), g, dd,
                dx.offset(), from, to));
    }

    @Override
    public void convolve(Tensor x, ConvGeometry g, Tensor w, Tensor y) {
        int n = Shapes.convolution(x, g, w, y);
        convolution.forward(data(x), x.offset(), g, n, data(w), w.offset(), w.rows(), data(y), y.offset());
    }

    @Override
    public void convolveWeightGradient(Tensor x, ConvGeometry g, Tensor dy, Tensor dw) {
        int n = Shapes.convolution(x, g, dw, dy);
        convolution.weightGradient(data(x), x.offset(), g, n, data(dy), dy.offset(), dw.rows(), data(dw),
                dw.offset());
    }

    @Override
    public void convolveBackward(Tensor x, ConvGeometry g, Tensor dy, Tensor w, Tensor dw, Tensor dx) {
        int n = Shapes.convolution(x, g, dw, dy);
        Shapes.requireShape(w, dw.rows(), g.patchSize());
        if (dx != null) {
            Shapes.convolution(dx, g, w, dy);
        }
        convolution.backward(data(x), x.offset(), g, n, data(dy), dy.offset(), data(w), w.offset(), dw.rows(),
                data(dw), dw.offset(), dx == null ? null : data(dx), dx == null ? 0 : dx.offset());
    }

    @Override
    public void convolveDataGradient(Tensor dy, ConvGeometry g, Tensor w, Tensor dx) {
        int n = Shapes.convolution(dx, g, w, dy);
        convolution.dataGradient(data(dy), dy.offset(), g, n, data(w), w.offset(), w.rows(), data(dx), dx.offset());
    }

    @Override
    public void maxPool(Tensor x, ConvGeometry g, Tensor y) {
        Shapes.requirePoolWindow(g);
        int n = Shapes.images(x, g.inputSize());
        Shapes.requireShape(y, n, g.outPositions() * g.channels());
        float[] xd = data(x);
        float[] yd = data(y);
        CpuParallel.forEach(n, x.size(), (from, to) -> CpuWindowKernels.maxPool(xd, x.offset(), g, yd, y.offset(),
                from, to));
    }

    @Override
    public void maxPoolBackward(Tensor x, Tensor y, Tensor dy, ConvGeometry g, Tensor dx) {
        int n = Shapes.maxPoolBackward(x, y, dy, g, dx);
        float[] xd = data(x);
        float[] gd = data(dy);
        float[] dd = data(dx);
        CpuParallel.forEach(n, x.size(), (from, to) -> CpuWindowKernels.maxPoolBackward(xd, x.offset(), gd,
                dy.offset(), g, dd, dx.offset(), from, to));
    }

    @Override
    public void meanPool(Tensor x, int channels, Tensor y) {
        Shapes.requireShape(y, x.rows(), channels);
        int positions = Shapes.positions(x, channels);
        float[] xd = data(x);
        float[] yd = data(y);
        CpuParallel.forEach(x.rows(), x.size(), (from, to) -> CpuWindowKernels.meanPool(xd, x.offset(), positions,
                channels, yd, y.offset(), from, to));
    }

    @Override
    public void meanPoolBackward(Tensor dy, int channels, Tensor dx) {
        Shapes.requireShape(dy, dx.rows(), channels);
        int positions = Shapes.positions(dx, channels);
        float[] gd = data(dy);
        float[] dd = data(dx);
        CpuParallel.forEach(dx.rows(), dx.size(), (from, to) -> CpuWindowKernels.meanPoolBackward(gd, dy.offset(),
                positions, channels, dd, dx.offset(), from, to));
    }

    @Override
    public void shortcut(Tensor x, ConvGeometry g, int outChannels, int before, Tensor y) {
        int n = Shapes.images(x, g.inputSize());
        Shapes.requireShortcut(g, outChannels, before, y, n);
        float[] xd = data(x);
        float[] yd = data(y);
        CpuParallel.forEach(n, y.size(), (from, to) -> CpuWindowKernels.shortcut(xd, x.offset(), g, outChannels,
                before, yd, y.offset(), false, from, to));
    }

    @Override
    public void shortcutBackward(Tensor dy, ConvGeometry g, int outChannels, int before, Tensor dx) {
        int n = Shapes.images(dx, g.inputSize());
        Shapes.requireShortcut(g, outChannels, before, dy, n);
        float[] gd = data(dy);
        float[] dd = data(dx);
        CpuParallel.forEach(n, dy.size(), (from, to) -> CpuWindowKernels.shortcut(dd, dx.offset(), g, outChannels,
                before, gd, dy.offset(), true, from, to));
    }

    @Override
    public void batchNorm(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd,
                          Tensor runningMean, Tensor runningVar, float momentum, Tensor y) {
        batchNorm(x, gamma, beta, eps, mean, invStd, runningMean, runningVar, momentum, y, false);
    }

    /** Both in one pass over {@code y}. */
    @Override
    public void batchNormRelu(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd,
                              Tensor runningMean, Tensor runningVar, float momentum, Tensor y) {
        batchNorm(x, gamma, beta, eps, mean, invStd, runningMean, runningVar, momentum, y, true);
    }

    private void batchNorm(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd,
                           Tensor runningMean, Tensor runningVar, float momentum, Tensor y, boolean relu) {
        int c = Shapes.batchNorm(x, gamma, beta, mean, invStd, runningMean, runningVar, y);
        norm.forwardTraining(data(x), x.offset(), x.rows(), c, data(gamma), gamma.offset(), data(beta),
                beta.offset(), eps, data(mean), mean.offset(), data(invStd), invStd.offset(),
                runningMean == null ? null : data(runningMean), runningMean == null ? 0 : runningMean.offset(),
                runningVar == null ? null : data(runningVar), runningVar == null ? 0 : runningVar.offset(), momentum,
                data(y), y.offset(), relu);
    }

    @Override
    public void batchNormInference(Tensor x, Tensor gamma, Tensor beta, Tensor runningMean, Tensor runningVar,
                                   float eps, Tensor y) {
        int c = x.cols();
        Shapes.sameSize(x, y);
        Shapes.requireRows(c, gamma, beta, runningMean, runningVar);
        norm.forwardInference(data(x), x.offset(), x.rows(), c, data(gamma), gamma.offset(), data(beta),
                beta.offset(), data(runningMean), runningMean.offset(), data(runningVar), runningVar.offset(), eps,
                data(y), y.offset());
    }

    /**
     * {@inheritDoc} With whole vectors of channels, one pass fewer: the first pass of the batch norm's backward masks
     * {@code dy} as it reads it and writes it back (the same bits as the two apart).
     */
    @Override
    public void batchNormReluBackward(Tensor x, Tensor y, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd,
                                      Tensor dGamma, Tensor dBeta, Tensor dx) {
        int c = Shapes.batchNormBackward(x, dy, gamma, mean, invStd, dGamma, dBeta, dx);
        Shapes.sameSize(y, dy);
        if (!CpuNormKernels.masksAsItSums(c)) {
            Backend.super.batchNormReluBackward(x, y, dy, gamma, mean, invStd, dGamma, dBeta, dx);
            return;
        }
        norm.backward(data(x), x.offset(), data(y), y.offset(), data(dy), dy.offset(), x.rows(), c, data(gamma),
                gamma.offset(), data(mean), mean.offset(), data(invStd), invStd.offset(), data(dGamma),
                dGamma.offset(), data(dBeta), dBeta.offset(), dx == null ? null : data(dx),
                dx == null ? 0 : dx.offset());
    }

    @Override
    public void batchNormBackward(Tensor x, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd, Tensor dGamma,
                                  Tensor dBeta, Tensor dx) {
        int c = Shapes.batchNormBackward(x, dy, gamma, mean, invStd, dGamma, dBeta, dx);
        norm.backward(data(x), x.offset(), null, 0, data(dy), dy.offset(), x.rows(), c, data(gamma), gamma.offset(),
                data(mean), mean.offset(), data(invStd), invStd.offset(), data(dGamma), dGamma.offset(), data(dBeta),
                dBeta.offset(), dx == null ? null : data(dx), dx == null ? 0 : dx.offset());
    }

    @Override
    public void dropout(Tensor x, float p, int channels, long seed, long stream, Tensor y) {
        Shapes.sameSize(x, y);
        Shapes.requireDropout(x, p, channels);
        float[] xd = data(x);
        float[] yd = data(y);
        CpuParallel.forEach(x.rows(), x.size(), (from, to) -> CpuKernels.dropout(xd, x.offset(), from, to, x.cols(),
                p, channels, seed, stream, yd, y.offset()));
    }

    @Override
    public void layerNorm(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd, Tensor y) {
        int n = Shapes.layerNorm(x, y, gamma, beta, mean, invStd);
        float[] xd = data(x);
        CpuParallel.forEach(x.rows(), x.size(), (from, to) -> CpuSequenceKernels.layerNorm(xd, x.offset(), from, to,
                n, data(gamma), gamma.offset(), data(beta), beta.offset(), eps, data(mean), mean.offset(),
                data(invStd), invStd.offset(), data(y), y.offset()));
    }

    @Override
    public void layerNormBackward(Tensor x, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd, Tensor dGamma,
                                  Tensor dBeta, Tensor dx) {
        int n = Shapes.layerNorm(x, dy, gamma, gamma, mean, invStd);
        Shapes.requireRows(n, dGamma, dBeta);
        float[] xd = data(x);
        float[] g = data(dy);
        CpuSequenceKernels.layerNormParameterGradients(xd, x.offset(), g, dy.offset(), x.rows(), n, data(mean),
                mean.offset(), data(invStd), invStd.offset(), data(dGamma), dGamma.offset(), data(dBeta),
                dBeta.offset());
        if (dx != null) {
            Shapes.sameSize(x, dx);
            CpuParallel.forEach(x.rows(), x.size(), (from, to) -> CpuSequenceKernels.layerNormInputGradient(xd,
                    x.offset(), g, dy.offset(), from, to, n, data(gamma), gamma.offset(), data(mean), mean.offset(),
                    data(invStd), invStd.offset(), data(dx), dx.offset()));
        }
    }

    @Override
    public void gelu(Tensor x, Tensor y) {
        Shapes.sameSize(x, y);
        CpuParallel.forEach(x.size(), x.size(), (from, to) -> CpuSequenceKernels.gelu(data(x), x.offset(), from, to,
                data(y), y.offset()));
    }

    @Override
    public void geluBackward(Tensor x, Tensor dy, Tensor dx) {
        Shapes.sameSize(x, dy);
        Shapes.sameSize(x, dx);
        CpuParallel.forEach(x.size(), x.size(), (from, to) -> CpuSequenceKernels.geluBackward(data(x), x.offset(),
                data(dy), dy.offset(), from, to, data(dx), dx.offset()));
    }

    @Override
    public void softmaxRows(Tensor x, Tensor y) {
        Shapes.sameSize(x, y);
        CpuParallel.forEach(x.rows(), x.size(), (from, to) -> CpuSequenceKernels.softmax(data(x), x.offset(), from,
                to, x.cols(), data(y), y.offset()));
    }

    @Override
    public void softmaxRowsBackward(Tensor y, Tensor dy, Tensor dx) {
        Shapes.sameSize(y, dy);
        Shapes.sameSize(y, dx);
        CpuParallel.forEach(y.rows(), y.size(), (from, to) -> CpuSequenceKernels.softmaxBackward(data(y), y.offset(),
                data(dy), dy.offset(), from, to, y.cols(), data(dx), dx.offset()));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here the products are shared between the two threads, each product whole on one thread with a gemm of its
     * own (they keep scratch), so a product's result does not depend on the split.
     */
    @Override
    public void gemmBatched(boolean transA, boolean transB, float alpha, Tensor a, Tensor b, float beta, Tensor c,
                            int count) {
        int[] r = Shapes.batchedRows(count, a, b, c);
        int ar = r[0];
        int br = r[1];
        int cr = r[2];
        int[] mnk = Shapes.gemm(transA, transB, a.rowRange(0, ar), b.rowRange(0, br), c.rowRange(0, cr));
        CpuParallel.Range products = (from, to) -> {
            CpuGemm g = batchGemms[from == 0 ? 0 : 1];
            for (int i = from; i < to; i++) {
                g.gemm(transA, transB, mnk[0], mnk[1], mnk[2], alpha, data(a), a.offset() + i * ar * a.cols(),
                        a.cols(), data(b), b.offset() + i * br * b.cols(), b.cols(), beta, data(c),
                        c.offset() + i * cr * c.cols());
            }
        };
        CpuParallel.forEach(count, (long) count * mnk[0] * mnk[1] * mnk[2], products);
    }

    @Override
    public void swapAxes(Tensor x, int outer, int a, int b, int inner, Tensor y) {
        Shapes.swapAxes(x, outer, a, b, inner, y);
        CpuParallel.forEach(outer * a, x.size(), (from, to) -> CpuSequenceKernels.swapAxes(data(x), x.offset(), from,
                to, a, b, inner, data(y), y.offset()));
    }

    @Override
    public void copyColumns(Tensor src, int srcColumn, Tensor dst, int dstColumn, int width) {
        Shapes.copyColumns(src, srcColumn, dst, dstColumn, width);
        float[] s = data(src);
        float[] d = data(dst);
        for (int r = 0; r < src.rows(); r++) {
            System.arraycopy(s, src.offset() + r * src.cols() + srcColumn, d, dst.offset() + r * dst.cols()
                    + dstColumn, width);
        }
    }

    @Override
    public void embedding(Tensor table, Tensor ids, Tensor out) {
        Shapes.embedding(table, ids, out);
        CpuRecurrentKernels.embedding(data(table), table.offset(), table.rows(), data(ids), ids.offset(), data(out),
                out.offset(), out.rows(), out.cols());
    }

    @Override
    public void embeddingBackward(Tensor dy, Tensor ids, Tensor dTable) {
        Shapes.embedding(dTable, ids, dy);
        CpuRecurrentKernels.embeddingBackward(data(dy), dy.offset(), data(ids), ids.offset(), data(dTable),
                dTable.offset(), dTable.rows(), dy.rows(), dy.cols());
    }

    @Override
    public void lstmCell(Tensor gates, Tensor cPrev, Tensor c, Tensor h) {
        int units = Shapes.lstmCell(gates, cPrev, c, h);
        float[] g = data(gates);
        float[] cp = data(cPrev);
        float[] cd = data(c);
        float[] hd = data(h);
        CpuParallel.forEach(gates.rows(), gates.size(), (from, to) -> CpuRecurrentKernels.cell(g, gates.offset(), cp,
                cPrev.offset(), cd, c.offset(), hd, h.offset(), units, from, to));
    }

    @Override
    public void lstmCellBackward(Tensor gates, Tensor cPrev, Tensor c, Tensor dh, Tensor dc, Tensor dGates) {
        int units = Shapes.lstmCell(gates, cPrev, c, dh, dc);
        Shapes.sameSize(gates, dGates);
        float[] g = data(gates);
        float[] cp = data(cPrev);
        float[] cd = data(c);
        float[] dhd = data(dh);
        float[] dcd = data(dc);
        float[] dg = data(dGates);
        CpuParallel.forEach(gates.rows(), gates.size(), (from, to) -> CpuRecurrentKernels.cellBackward(g,
                gates.offset(), cp, cPrev.offset(), cd, c.offset(), dhd, dh.offset(), dcd, dc.offset(), dg,
                dGates.offset(), units, from, to));
    }

    @Override
    public void close() {
        buffers.forEach(CpuBuffer::close);
        buffers.clear();
        convolution.close();
    }

    private static float[] data(Tensor t) {
        if (!(t.buffer() instanceof CpuBuffer buffer)) {
            throw new IllegalArgumentException("tensor does not belong to the cpu backend: " + t);
        }
        return buffer.data();
    }

    @Override
    public void adamUpdate(Tensor params, Tensor grad, Tensor m, Tensor v, float lr, float beta1, float beta2,
                           float eps, float weightDecay, long t) {
        AdamStep step = AdamStep.of(params, grad, m, v, lr, beta1, beta2, eps, weightDecay, t);
        CpuKernels.adam(data(params), params.offset(), data(grad), grad.offset(), data(m), m.offset(), data(v),
                v.offset(), params.size(), step);
    }
}
