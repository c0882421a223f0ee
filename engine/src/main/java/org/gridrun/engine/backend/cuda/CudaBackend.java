package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.gridrun.engine.backend.AdamStep;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.ConvGeometry;
import org.gridrun.engine.backend.DeviceCodec;
import org.gridrun.engine.backend.DevicePowerIteration;
import org.gridrun.engine.backend.LossSums;
import org.gridrun.engine.backend.LowRankShapes;
import org.gridrun.engine.backend.Shapes;
import org.gridrun.engine.backend.Tensor;

/**
 * The CUDA backend: tensors live in device memory and every operation is one or a few of gridrun's own kernels
 * ({@code engine/src/main/cuda/}), queued on one stream.
 *
 * <p>Shapes are checked here, with the CPU backend's messages, before anything is queued; the launchers
 * ({@link CudaBlas}, {@link CudaPooling}, {@link CudaElementwise}, {@link CudaReductions}) get device addresses and
 * sizes. Operations that return a number ({@link #softmaxCrossEntropy}, {@link #countCorrect}) and
 * {@link #download} wait for the work before them; the others only queue it.
 */
public final class CudaBackend implements Backend {
    /** The device, through the recorder that replays a training step as one graph. */
    private final StepGraph gpu;
    private final Scratch scratch;
    private final CudaBlas blas;
    private final CudaPooling pooling;
    private final CudaElementwise elementwise;
    private final CudaReductions reductions;
    private final CudaSequence sequence;
    private final CudaRecurrent recurrent;
    private final CudaDeviceCodec deviceCodec;
    private final List<CudaBuffer> buffers = new ArrayList<>();
    private final List<CudaPowerSgd> powerIterations = new ArrayList<>();

    /** A backend on {@code gpu}, which it closes on {@link #close()}. */
    CudaBackend(Gpu device) {
        this.gpu = new StepGraph(device);
        this.scratch = new Scratch(gpu);
        this.blas = new CudaBlas(gpu, scratch);
        this.pooling = new CudaPooling(gpu);
        this.elementwise = new CudaElementwise(gpu);
        this.reductions = new CudaReductions(gpu, scratch);
        this.sequence = new CudaSequence(gpu, scratch);
        this.recurrent = new CudaRecurrent(gpu);
        this.deviceCodec = new CudaDeviceCodec(List.of(new CudaLevelCodec(gpu), new CudaSparseCodec(gpu),
                new CudaCastCodec(gpu), new CudaSignCodec(gpu), new CudaRawCodec(gpu), new CudaSmaqCodec(gpu),
                new CudaThresholdCodec(gpu), new CudaJointSqCodec(gpu), new CudaNaturalCodec(gpu),
                new CudaOneBitCodec(gpu), new CudaS2fp8Codec(gpu),
                new CudaMcgqCodec(gpu)), new CudaGradientClip(gpu));
    }

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public Optional<DeviceCodec> deviceCodec() {
        return Optional.of(deviceCodec);
    }

    @Override
    public Optional<DevicePowerIteration> powerIteration(LowRankShapes shapes) {
        CudaPowerSgd step = new CudaPowerSgd(gpu, shapes);
        powerIterations.add(step);
        return Optional.of(step);
    }

    @Override
    public String blas() {
        return "gridrun kernels on " + gpu.describe();
    }

    @Override
    public Tensor allocate(int rows, int cols) {
        if (rows < 0 || cols < 0 || (long) rows * cols > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("cannot allocate a " + rows + "x" + cols + " tensor");
        }
        long length = (long) rows * cols;
        long address = gpu.allocate(Math.max(4, 4 * length));
        CudaBuffer buffer = new CudaBuffer(gpu, address, length);
        buffers.add(buffer);
        if (length > 0) {
            gpu.fill32(address, 0, length);
        }
        return Tensor.owning(buffer, rows, cols);
    }

    @Override
    public void upload(float[] src, int srcOffset, Tensor dst) {
        if (srcOffset < 0 || srcOffset + (long) dst.size() > src.length) {
            throw new IndexOutOfBoundsException(dst.size() + " values at " + srcOffset + " of " + src.length);
        }
        if (dst.size() > 0) {
            gpu.upload(src, srcOffset, CudaBuffer.of(dst), dst.size());
        }
    }

    @Override
    public void download(Tensor src, float[] dst, int dstOffset) {
        if (dstOffset < 0 || dstOffset + (long) src.size() > dst.length) {
            throw new IndexOutOfBoundsException(src.size() + " values at " + dstOffset + " of " + dst.length);
        }
        if (src.size() > 0) {
            gpu.download(CudaBuffer.of(src), dst, dstOffset, src.size());
        }
    }

    @Override
    public void copy(Tensor src, Tensor dst) {
        Shapes.sameSize(src, dst);
        if (src.size() > 0) {
            gpu.copy(CudaBuffer.of(src), CudaBuffer.of(dst), 4L * src.size());
        }
    }

    @Override
    public void fill(Tensor x, float value) {
        if (x.size() > 0) {
            gpu.fill32(CudaBuffer.of(x), Float.floatToRawIntBits(value), x.size());
        }
    }

    @Override
    public void fillUniform(Tensor x, float low, float high, long seed, long stream) {
        if (x.size() > 0) {
            elementwise.fillUniform(CudaBuffer.of(x), x.size(), low, high, seed, stream);
        }
    }

    @Override
    public void scale(float alpha, Tensor x) {
        if (x.size() > 0) {
            elementwise.scale(alpha, CudaBuffer.of(x), x.size());
        }
    }

    @Override
    public void momentumInDouble(Tensor m, Tensor g, double beta) {
        Shapes.sameSize(m, g);
        if (m.size() > 0) {
            Launches.linear(gpu, "gr_momentum_double", m.size(), KernelArgs.of().address(CudaBuffer.of(m))
                    .address(CudaBuffer.of(g)).i64(m.size()).i64(Double.doubleToRawLongBits(beta))
                    .i64(Double.doubleToRawLongBits(1 - beta)));
        }
    }

    @Override
    public void axpy(float alpha, Tensor x, Tensor y) {
        Shapes.sameSize(x, y);
        if (x.size() > 0) {
            elementwise.axpy(alpha, CudaBuffer.of(x), CudaBuffer.of(y), x.size());
        }
    }

    @Override
    public void gemm(boolean transA, boolean transB, float alpha, Tensor a, Tensor b, float beta, Tensor c) {
        int[] mnk = Shapes.gemm(transA, transB, a, b, c);
        if (mnk[0] == 0 || mnk[1] == 0) {
            return;
        }
        blas.gemm(transA, transB, mnk[0], mnk[1], mnk[2], alpha, CudaBuffer.of(a), a.cols(), CudaBuffer.of(b),
                b.cols(), beta, CudaBuffer.of(c), c.cols());
    }

    /** {@inheritDoc} Here one launch for all the products ({@code CudaBlas.gemmBatched}), the same bits as a loop. */
    @Override
    public void gemmBatched(boolean transA, boolean transB, float alpha, Tensor a, Tensor b, float beta, Tensor c,
                            int count) {
        int[] r = Shapes.batchedRows(count, a, b, c);
        int[] mnk = Shapes.gemm(transA, transB, a.rowRange(0, r[0]), b.rowRange(0, r[1]), c.rowRange(0, r[2]));
        if (mnk[0] == 0 || mnk[1] == 0) {
            return;
        }
        blas.gemmBatched(transA, transB, mnk[0], mnk[1], mnk[2], alpha, CudaBuffer.of(a), a.cols(),
                (long) r[0] * a.cols(), CudaBuffer.of(b), b.cols(), (long) r[1] * b.cols(), beta, CudaBuffer.of(c),
                c.cols(), (long) r[2] * c.cols(), count);
    }

    @Override
    public void addRowVector(Tensor row, Tensor x) {
        Shapes.requireRow(row, x.cols());
        if (x.size() > 0) {
            elementwise.addRowVector(CudaBuffer.of(row), CudaBuffer.of(x), x.rows(), x.cols());
        }
    }

    @Override
    public void columnSums(Tensor x, float beta, Tensor out) {
        Shapes.requireRow(out, x.cols());
        if (x.cols() > 0) {
            reductions.columnSums(CudaBuffer.of(x), x.rows(), x.cols(), beta, CudaBuffer.of(out));
        }
    }

    @Override
    public void relu(Tensor x, Tensor y) {
        Shapes.sameSize(x, y);
        if (x.size() > 0) {
            elementwise.relu(CudaBuffer.of(x), CudaBuffer.of(y), x.size());
        }
    }

    @Override
    public void reluBackward(Tensor y, Tensor grad) {
        Shapes.sameSize(y, grad);
        if (y.size() > 0) {
            elementwise.reluBackward(CudaBuffer.of(y), CudaBuffer.of(grad), y.size());
        }
    }

    @Override
    public double softmaxCrossEntropy(Tensor logits, Tensor labels, Tensor grad, float gradScale) {
        Shapes.requireLabels(logits, labels);
        if (grad != null) {
            Shapes.sameSize(logits, grad);
        }
        if (logits.rows() == 0) {
            return 0;
        }
        return reductions.softmaxCrossEntropy(CudaBuffer.of(logits), logits.rows(), logits.cols(),
                CudaBuffer.of(labels), CudaBuffer.ofNullable(grad), gradScale);
    }

    @Override
    public void softmaxCrossEntropy(Tensor logits, Tensor labels, Tensor grad, float gradScale, LossSums sums,
                                    int slot) {
        if (!(sums instanceof DeviceLossSums device)) {
            Backend.super.softmaxCrossEntropy(logits, labels, grad, gradScale, sums, slot);
            return;
        }
        Shapes.requireLabels(logits, labels);
        if (grad != null) {
            Shapes.sameSize(logits, grad);
        }
        if (logits.rows() == 0) {
            sums.put(slot, 0);
            return;
        }
        reductions.softmaxCrossEntropy(CudaBuffer.of(logits), logits.rows(), logits.cols(), CudaBuffer.of(labels),
                CudaBuffer.ofNullable(grad), gradScale, device.slot(slot, logits.cols()));
    }

    @Override
    public LossSums lossSums(int slots) {
        DeviceLossSums sums = new DeviceLossSums(gpu, slots);
        // each lane writes its own slot
        gpu.share(sums.address(), LaneOrder.Sharing.SLICES);
        return sums;
    }

    @Override
    public int countCorrect(Tensor logits, Tensor labels) {
        Shapes.requireLabels(logits, labels);
        if (logits.rows() == 0) {
            return 0;
        }
        return reductions.countCorrect(CudaBuffer.of(logits), logits.rows(), logits.cols(), CudaBuffer.of(labels));
    }

    @Override
    public void sgdUpdate(Tensor params, Tensor grad, Tensor velocity, float lr, float momentum, boolean nesterov,
                          float weightDecay) {
        Shapes.sgd(params, grad, velocity, momentum);
        if (params.size() > 0) {
            elementwise.sgd(CudaBuffer.of(params), CudaBuffer.of(grad), momentum == 0f ? 0
                    : CudaBuffer.of(velocity), params.size(), lr, momentum, nesterov, weightDecay);
        }
    }

    @Override
    public void adamUpdate(Tensor params, Tensor grad, Tensor m, Tensor v, float lr, float beta1, float beta2,
                           float eps, float weightDecay, long t) {
        AdamStep step = AdamStep.of(params, grad, m, v, lr, beta1, beta2, eps, weightDecay, t);
        if (params.size() > 0) {
            elementwise.adam(CudaBuffer.of(params), CudaBuffer.of(grad), CudaBuffer.of(m), CudaBuffer.of(v),
                    params.size(), step.stepSize(), beta1, beta2, eps, step.correction2Sqrt(), weightDecay);
        }
    }

    @Override
    public void im2col(Tensor x, ConvGeometry g, Tensor cols) {
        int n = Shapes.images(x, g.inputSize());
        Shapes.requireShape(cols, n * g.outPositions(), g.patchSize());
        if (n > 0) {
            blas.im2col(CudaBuffer.of(x), n, g, CudaBuffer.of(cols));
        }
    }

    @Override
    public void col2im(Tensor cols, ConvGeometry g, Tensor dx) {
        int n = Shapes.images(dx, g.inputSize());
        Shapes.requireShape(cols, n * g.outPositions(), g.patchSize());
        if (n > 0) {
            blas.col2im(CudaBuffer.of(cols), n, g, CudaBuffer.of(dx));
        }
    }

    @Override
    public void convolve(Tensor x, ConvGeometry g, Tensor w, Tensor y) {
        int n = Shapes.convolution(x, g, w, y);
        if (n > 0 && w.rows() > 0) {
            blas.convolve(CudaBuffer.of(x), n, g, CudaBuffer.of(w), w.rows(), CudaBuffer.of(y));
        }
    }

    @Override
    public void convolveWeightGradient(Tensor x, ConvGeometry g, Tensor dy, Tensor dw) {
        int n = Shapes.convolution(x, g, dw, dy);
        if (dw.rows() == 0) {
            return;
        }
        if (n == 0) {
            fill(dw, 0f);
            return;
        }
        blas.convolveWeightGradient(CudaBuffer.of(x), n, g, CudaBuffer.of(dy), dw.rows(), CudaBuffer.of(dw));
    }

    @Override
    public void convolveDataGradient(Tensor dy, ConvGeometry g, Tensor w, Tensor dx) {
        int n = Shapes.convolution(dx, g, w, dy);
        if (n == 0) {
            return;
        }
        if (w.rows() == 0) {
            fill(dx, 0f);
            return;
        }
        blas.convolveDataGradient(CudaBuffer.of(dy), n, g, CudaBuffer.of(w), w.rows(), CudaBuffer.of(dx));
    }

    @Override
    public void maxPool(Tensor x, ConvGeometry g, Tensor y) {
        Shapes.requirePoolWindow(g);
        int n = Shapes.images(x, g.inputSize());
        Shapes.requireShape(y, n, g.outPositions() * g.channels());
        if (n > 0) {
            pooling.maxPool(CudaBuffer.of(x), n, g, CudaBuffer.of(y));
        }
    }

    @Override
    public void maxPoolBackward(Tensor x, Tensor y, Tensor dy, ConvGeometry g, Tensor dx) {
        int n = Shapes.maxPoolBackward(x, y, dy, g, dx);
        if (n > 0) {
            pooling.maxPoolBackward(CudaBuffer.of(x), CudaBuffer.of(dy), n, g, CudaBuffer.of(dx));
        }
    }

    @Override
    public void meanPool(Tensor x, int channels, Tensor y) {
        Shapes.requireShape(y, x.rows(), channels);
        int positions = Shapes.positions(x, channels);
        if (x.rows() > 0) {
            pooling.meanPool(CudaBuffer.of(x), x.rows(), positions, channels, CudaBuffer.of(y));
        }
    }

    @Override
    public void meanPoolBackward(Tensor dy, int channels, Tensor dx) {
        Shapes.requireShape(dy, dx.rows(), channels);
        int positions = Shapes.positions(dx, channels);
        if (dx.rows() > 0) {
            pooling.meanPoolBackward(CudaBuffer.of(dy), dx.rows(), positions, channels, CudaBuffer.of(dx));
        }
    }

    @Override
    public void shortcut(Tensor x, ConvGeometry g, int outChannels, int before, Tensor y) {
        int n = Shapes.images(x, g.inputSize());
        Shapes.requireShortcut(g, outChannels, before, y, n);
        if (n > 0) {
            pooling.shortcut(CudaBuffer.of(x), n, g, outChannels, before, CudaBuffer.of(y));
        }
    }

    @Override
    public void shortcutBackward(Tensor dy, ConvGeometry g, int outChannels, int before, Tensor dx) {
        int n = Shapes.images(dx, g.inputSize());
        Shapes.requireShortcut(g, outChannels, before, dy, n);
        if (n > 0) {
            pooling.shortcutBackward(CudaBuffer.of(dy), n, g, outChannels, before, CudaBuffer.of(dx));
        }
    }

    @Override
    public void batchNorm(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd,
                          Tensor runningMean, Tensor runningVar, float momentum, Tensor y) {
        int c = Shapes.batchNorm(x, gamma, beta, mean, invStd, runningMean, runningVar, y);
        if (x.size() > 0) {
            reductions.batchNorm(CudaBuffer.of(x), x.rows(), c, CudaBuffer.of(gamma), CudaBuffer.of(beta), eps,
                    CudaBuffer.of(mean), CudaBuffer.of(invStd), CudaBuffer.ofNullable(runningMean),
                    CudaBuffer.ofNullable(runningVar), momentum, CudaBuffer.of(y));
        }
    }

    @Override
    public void batchNormInference(Tensor x, Tensor gamma, Tensor beta, Tensor runningMean, Tensor runningVar,
                                   float eps, Tensor y) {
        int c = x.cols();
        Shapes.sameSize(x, y);
        Shapes.requireRows(c, gamma, beta, runningMean, runningVar);
        if (x.size() > 0) {
            reductions.batchNormInference(CudaBuffer.of(x), x.rows(), c, CudaBuffer.of(gamma), CudaBuffer.of(beta),
                    CudaBuffer.of(runningMean), CudaBuffer.of(runningVar), eps, CudaBuffer.of(y));
        }
    }

    @Override
    public void batchNormBackward(Tensor x, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd, Tensor dGamma,
                                  Tensor dBeta, Tensor dx) {
        int c = Shapes.batchNormBackward(x, dy, gamma, mean, invStd, dGamma, dBeta, dx);
        if (x.size() > 0) {
            reductions.batchNormBackward(CudaBuffer.of(x), CudaBuffer.of(dy), x.rows(), c, CudaBuffer.of(gamma),
                    CudaBuffer.of(mean), CudaBuffer.of(invStd), CudaBuffer.of(dGamma), CudaBuffer.of(dBeta),
                    CudaBuffer.ofNullable(dx));
        }
    }

    @Override
    public void dropout(Tensor x, float p, int channels, long seed, long stream, Tensor y) {
        Shapes.sameSize(x, y);
        Shapes.requireDropout(x, p, channels);
        if (x.size() > 0) {
            elementwise.dropout(CudaBuffer.of(x), x.rows(), x.cols(), p, channels, seed, stream, CudaBuffer.of(y));
        }
    }

    @Override
    public void embedding(Tensor table, Tensor ids, Tensor out) {
        Shapes.embedding(table, ids, out);
        if (out.size() > 0) {
            recurrent.embedding(CudaBuffer.of(table), CudaBuffer.of(ids), CudaBuffer.of(out), out.rows(), out.cols(),
                    table.rows());
        }
    }

    @Override
    public void embeddingBackward(Tensor dy, Tensor ids, Tensor dTable) {
        Shapes.embedding(dTable, ids, dy);
        if (dy.size() > 0) {
            recurrent.embeddingBackward(CudaBuffer.of(dy), CudaBuffer.of(ids), CudaBuffer.of(dTable), dy.rows(),
                    dy.cols(), dTable.rows());
        }
    }

    @Override
    public void lstmCell(Tensor gates, Tensor cPrev, Tensor c, Tensor h) {
        int units = Shapes.lstmCell(gates, cPrev, c, h);
        if (c.size() > 0) {
            recurrent.lstmCell(CudaBuffer.of(gates), CudaBuffer.of(cPrev), CudaBuffer.of(c), CudaBuffer.of(h),
                    c.rows(), units);
        }
    }

    @Override
    public void lstmCellBackward(Tensor gates, Tensor cPrev, Tensor c, Tensor dh, Tensor dc, Tensor dGates) {
        int units = Shapes.lstmCell(gates, cPrev, c, dh, dc);
        Shapes.sameSize(gates, dGates);
        if (c.size() > 0) {
            recurrent.lstmCellBackward(CudaBuffer.of(gates), CudaBuffer.of(cPrev), CudaBuffer.of(c), CudaBuffer.of(dh),
                    CudaBuffer.of(dc), CudaBuffer.of(dGates), c.rows(), units);
        }
    }

    @Override
    public void synchronize() {
        gpu.synchronize();
    }

    @Override
    public void beginStep() {
        gpu.beginStep();
    }

    @Override
    public void endStep() {
        gpu.endStep();
    }

    @Override
    public boolean replaysSteps() {
        return gpu.disabledBecause() == null;
    }

    @Override
    public void lane(int lane) {
        gpu.lane(lane);
        scratch.lane(lane);
    }

    @Override
    public boolean runsLanesAtOnce() {
        return true;
    }

    @Override
    public void readInLanes(Tensor t) {
        share(t, LaneOrder.Sharing.READ);
    }

    @Override
    public void slicedInLanes(Tensor t) {
        share(t, LaneOrder.Sharing.SLICES);
    }

    private void share(Tensor t, LaneOrder.Sharing sharing) {
        if (t.size() > 0) {
            gpu.share(CudaBuffer.of(t), sharing);
        }
    }

    /**
     * The longest chain of waits in the last graph built, its operations, and its lane operations' waits for other
     * lanes': how far lanes run at the same time.
     */
    int[] graphShape() {
        return new int[] {gpu.longestChain(), gpu.graphOperations(), gpu.crossLaneWaits()};
    }

    /** How many steps were launched as one graph, and why graphs are off where they are (null while they are on). */
    long graphReplays() {
        return gpu.replays();
    }

    @Override
    public String stepGraphs() {
        String off = gpu.disabledBecause();
        return gpu.replays() + " steps replayed as CUDA graphs, " + gpu.overlaps() + " begun while the graph before "
                + "ran, " + gpu.waitsWhileMatching() + " waits for it while matching" + (off == null ? ""
                : "; graphs off: " + off);
    }

    /** {@link StepGraph#waitsWhileMatching()}: tests check that replayed steps leave the device busy. */
    long graphWaitsWhileMatching() {
        return gpu.waitsWhileMatching();
    }

    /** {@link StepGraph#overlaps()}. */
    long graphOverlaps() {
        return gpu.overlaps();
    }

    String graphsOffBecause() {
        return gpu.disabledBecause();
    }

    @Override
    public void layerNorm(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd, Tensor y) {
        int n = Shapes.layerNorm(x, y, gamma, beta, mean, invStd);
        if (x.size() > 0) {
            sequence.layerNorm(CudaBuffer.of(x), CudaBuffer.of(gamma), CudaBuffer.of(beta), x.rows(), n, eps,
                    CudaBuffer.of(mean), CudaBuffer.of(invStd), CudaBuffer.of(y));
        }
    }

    @Override
    public void layerNormBackward(Tensor x, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd, Tensor dGamma,
                                  Tensor dBeta, Tensor dx) {
        int n = Shapes.layerNorm(x, dy, gamma, gamma, mean, invStd);
        Shapes.requireRows(n, dGamma, dBeta);
        if (dx != null) {
            Shapes.sameSize(x, dx);
        }
        if (n > 0) {
            sequence.layerNormBackward(CudaBuffer.of(x), CudaBuffer.of(dy), CudaBuffer.of(gamma), CudaBuffer.of(mean),
                    CudaBuffer.of(invStd), x.rows(), n, CudaBuffer.of(dGamma), CudaBuffer.of(dBeta),
                    dx == null || x.size() == 0 ? 0 : CudaBuffer.of(dx));
        }
    }

    @Override
    public void gelu(Tensor x, Tensor y) {
        Shapes.sameSize(x, y);
        if (x.size() > 0) {
            sequence.gelu(CudaBuffer.of(x), CudaBuffer.of(y), x.size());
        }
    }

    @Override
    public void geluBackward(Tensor x, Tensor dy, Tensor dx) {
        Shapes.sameSize(x, dy);
        Shapes.sameSize(x, dx);
        if (x.size() > 0) {
            sequence.geluBackward(CudaBuffer.of(x), CudaBuffer.of(dy), CudaBuffer.of(dx), x.size());
        }
    }

    @Override
    public void softmaxRows(Tensor x, Tensor y) {
        Shapes.sameSize(x, y);
        if (x.size() > 0) {
            sequence.softmax(CudaBuffer.of(x), CudaBuffer.of(y), x.rows(), x.cols());
        }
    }

    @Override
    public void softmaxRowsBackward(Tensor y, Tensor dy, Tensor dx) {
        Shapes.sameSize(y, dy);
        Shapes.sameSize(y, dx);
        if (y.size() > 0) {
            sequence.softmaxBackward(CudaBuffer.of(y), CudaBuffer.of(dy), CudaBuffer.of(dx), y.rows(), y.cols());
        }
    }

    @Override
    public void swapAxes(Tensor x, int outer, int a, int b, int inner, Tensor y) {
        Shapes.swapAxes(x, outer, a, b, inner, y);
        sequence.swapAxes(CudaBuffer.of(x), CudaBuffer.of(y), outer, a, b, inner);
    }

    @Override
    public void copyColumns(Tensor src, int srcColumn, Tensor dst, int dstColumn, int width) {
        Shapes.copyColumns(src, srcColumn, dst, dstColumn, width);
        if (src.rows() > 0 && width > 0) {
            sequence.copyColumns(CudaBuffer.of(src), src.cols(), srcColumn, CudaBuffer.of(dst), dst.cols(),
                    dstColumn, src.rows(), width);
        }
    }

    @Override
    public void close() {
        buffers.forEach(CudaBuffer::close);
        buffers.clear();
        scratch.close();
        deviceCodec.close();
        powerIterations.forEach(CudaPowerSgd::close);
        powerIterations.clear();
        gpu.close();
    }
}
