package org.gridrun.engine.backend;

/**
 * The operations a model and an optimizer need, on tensors that live in one backend's memory.
 *
 * <p>Order of calls: obtain a backend from {@link Backends#open(String)}; {@link #allocate(int, int)} every buffer
 * once, before the training loop (allocation is not meant for the hot loop); {@link #upload} host data into tensors;
 * run operations; {@link #download} results; {@link #close()} at the end, which releases every buffer this backend
 * allocated and makes their tensors unusable. Operations accept only tensors this backend allocated (or views of
 * them) and fail on a closed buffer.
 *
 * <p>All matrices are row-major. Operations are synchronous from the caller's point of view: a device backend may
 * queue them, but {@code download} and every operation that returns a number wait for the work before them. A
 * backend is used by one thread at a time.
 */
public interface Backend extends AutoCloseable {
    /** The short name this backend is registered under ({@code cpu}, {@code cuda}). */
    String name();

    /** The linear-algebra library behind {@link #gemm}, e.g. {@code netlib JavaBLAS (Java11BLAS)}. */
    String blas();

    /** A new zero-filled {@code rows × cols} tensor that owns its buffer. */
    Tensor allocate(int rows, int cols);

    /** Copies {@code dst.size()} floats from {@code src[srcOffset…]} into {@code dst}. */
    void upload(float[] src, int srcOffset, Tensor dst);

    /** Copies all of {@code src} into {@code dst[dstOffset…]}. */
    void download(Tensor src, float[] dst, int dstOffset);

    /** {@code dst ← src}; both the same size. */
    void copy(Tensor src, Tensor dst);

    /** Sets every element of {@code x} to {@code value}. */
    void fill(Tensor x, float value);

    /** Fills {@code x} with uniform values in [low, high) drawn from stream {@code stream} of {@code seed}. */
    void fillUniform(Tensor x, float low, float high, long seed, long stream);

    /** {@code x ← alpha·x}. */
    void scale(float alpha, Tensor x);

    /** {@code y ← alpha·x + y}; both the same size. */
    void axpy(float alpha, Tensor x, Tensor y);

    /**
     * {@code y ← max(x + y, 0)}, a residual block's sum and ReLU: {@link #axpy} with 1 then {@link #relu}, to the
     * same bits (a backend may do both in one pass).
     */
    default void addRelu(Tensor x, Tensor y) {
        axpy(1f, x, y);
        relu(y, y);
    }

    /**
     * {@code c ← alpha·op(a)·op(b) + beta·c}, where {@code op} transposes when its flag is set.
     *
     * <p>{@code op(a)} is m×k, {@code op(b)} k×n and {@code c} m×n; with {@code beta = 0} the old contents of
     * {@code c} are ignored.
     */
    void gemm(boolean transA, boolean transB, float alpha, Tensor a, Tensor b, float beta, Tensor c);

    /** Adds the 1×n {@code row} to every row of the m×n {@code x}. */
    void addRowVector(Tensor row, Tensor x);

    /** {@code out ← beta·out + column sums of x}, where x is m×n and out 1×n. */
    void columnSums(Tensor x, float beta, Tensor out);

    /** {@code y ← max(x, 0)}; {@code y} may be {@code x}. */
    void relu(Tensor x, Tensor y);

    /** Zeroes {@code grad} where the ReLU output {@code y} is not positive: the ReLU backward pass, in place. */
    void reluBackward(Tensor y, Tensor grad);

    /**
     * Softmax cross-entropy of each row of {@code logits} against its class in {@code labels}.
     *
     * <p>{@code labels} is m×1 and holds class indices as floats (exact up to 2^24). Returns the sum of the row
     * losses. When {@code grad} (m×n) is not null it receives {@code gradScale·(softmax(logits) − onehot(label))},
     * the gradient of {@code gradScale ×} the summed loss; {@code grad} may be {@code logits}.
     */
    double softmaxCrossEntropy(Tensor logits, Tensor labels, Tensor grad, float gradScale);

    /**
     * {@link #softmaxCrossEntropy(Tensor, Tensor, Tensor, float)} whose summed loss goes to {@code slot} of
     * {@code sums} ({@link #lossSums}) instead of being returned: a device backend does not wait for it, and a label
     * that is not a class index fails when the sums are read.
     */
    default void softmaxCrossEntropy(Tensor logits, Tensor labels, Tensor grad, float gradScale, LossSums sums,
                                     int slot) {
        sums.put(slot, softmaxCrossEntropy(logits, labels, grad, gradScale));
    }

    /** Loss sums of {@code slots} batches for {@link #softmaxCrossEntropy(Tensor, Tensor, Tensor, float, LossSums, int)}. */
    default LossSums lossSums(int slots) {
        return new LossSums(slots);
    }

    /** How many rows of {@code logits} have their largest value at the class in {@code labels}. */
    int countCorrect(Tensor logits, Tensor labels);

    /**
     * {@code m ← (float) (β·m + (1 − β)·g)}, each value in double and rounded once: a momentum kept in floats and
     * updated in double (signum's, {@code SignSgd}), the host's bits on every backend.
     */
    void momentumInDouble(Tensor m, Tensor g, double beta);

    /**
     * One SGD step with momentum, in place: {@code d = grad + weightDecay·params; v ← momentum·v + d;
     * params ← params − lr·(nesterov ? d + momentum·v : v)}.
     *
     * <p>With {@code momentum = 0}, {@code velocity} is not read and may be null. The convention is PyTorch's
     * {@code torch.optim.SGD} with zero dampening.
     */
    void sgdUpdate(Tensor params, Tensor grad, Tensor velocity, float lr, float momentum, boolean nesterov,
                   float weightDecay);

    /**
     * Unfolds the windows of a batch of channels-last images ({@code x}: n × {@code g.inputSize()}) into the rows of
     * {@code cols} (n·{@code g.outPositions()} × {@code g.patchSize()}): row {@code (i·outH + oy)·outW + ox} holds
     * the window of image i at (oy, ox), kernel row by kernel column, channels together; padding reads as 0. A
     * convolution is then one {@link #gemm} with the weights.
     */
    void im2col(Tensor x, ConvGeometry g, Tensor cols);

    /** The adjoint of {@link #im2col}: sets {@code dx} to the sum, per input position, of the patches holding it. */
    void col2im(Tensor cols, ConvGeometry g, Tensor dx);

    /**
     * The convolution {@code y = im2col(x)·wᵀ} of a batch of channels-last images ({@code x}: n ×
     * {@code g.inputSize()}) with {@code w} (filters × {@code g.patchSize()}) into {@code y} (n·{@code
     * g.outPositions()} × filters), without a patch matrix of the whole batch.
     */
    void convolve(Tensor x, ConvGeometry g, Tensor w, Tensor y);

    /**
     * The weight gradient {@code dw = dyᵀ·im2col(x)} of {@link #convolve}: {@code dy} is n·{@code g.outPositions()} ×
     * filters, {@code dw} filters × {@code g.patchSize()}.
     */
    void convolveWeightGradient(Tensor x, ConvGeometry g, Tensor dy, Tensor dw);

    /**
     * The input gradient {@code dx = col2im(dy·w)} of {@link #convolve}, overwriting {@code dx} (n ×
     * {@code g.inputSize()}): {@code dy} is n·{@code g.outPositions()} × filters, {@code w} filters ×
     * {@code g.patchSize()}.
     */
    void convolveDataGradient(Tensor dy, ConvGeometry g, Tensor w, Tensor dx);

    /**
     * {@link #convolveWeightGradient} into {@code dw} and, where {@code dx} is not null,
     * {@link #convolveDataGradient} into {@code dx}: the same results, in one call a backend may share work in.
     */
    default void convolveBackward(Tensor x, ConvGeometry g, Tensor dy, Tensor w, Tensor dw, Tensor dx) {
        convolveWeightGradient(x, g, dy, dw);
        if (dx != null) {
            convolveDataGradient(dy, g, w, dx);
        }
    }

    /**
     * Max pooling of channels-last images: {@code y} is n × outPositions·channels. Windows may reach into the
     * padding (at most half the kernel), whose positions never win, as in PyTorch's {@code max_pool2d}.
     */
    void maxPool(Tensor x, ConvGeometry g, Tensor y);

    /**
     * The backward pass of {@link #maxPool}: each output gradient goes to the first input of its window (in kernel
     * order, padding skipped) holding the window's maximum, found from {@code x}; {@code y} (the forward's output,
     * same shape as {@code dy}) is not read by every backend; {@code dx} is overwritten.
     */
    void maxPoolBackward(Tensor x, Tensor y, Tensor dy, ConvGeometry g, Tensor dx);

    /** The mean over positions of each channel: {@code x} is n × positions·channels, {@code y} n × channels. */
    void meanPool(Tensor x, int channels, Tensor y);

    /** The backward pass of {@link #meanPool}: {@code dx} is overwritten. */
    void meanPoolBackward(Tensor dy, int channels, Tensor dx);

    /**
     * The option-A residual shortcut of He et al.: every {@code g.stride()}-th pixel of {@code x} in both
     * directions, its {@code g.channels()} channels placed at {@code [before, before + g.channels())} of
     * {@code outChannels}, the other channels zero.
     */
    void shortcut(Tensor x, ConvGeometry g, int outChannels, int before, Tensor y);

    /** The backward pass of {@link #shortcut}: {@code dx} is overwritten. */
    void shortcutBackward(Tensor dy, ConvGeometry g, int outChannels, int before, Tensor dx);

    /**
     * Batch normalisation in training mode of the columns of {@code x} (rows × channels) with the batch's own
     * statistics: {@code y = gamma·(x − mean)·invStd + beta}, {@code invStd = 1/sqrt(biased var + eps)}, both
     * written (1 × channels) for the backward pass. When {@code runningMean} is not null the running statistics
     * move by {@code momentum} towards the batch mean and unbiased variance. {@code y} may be {@code x}.
     */
    void batchNorm(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd, Tensor runningMean,
                   Tensor runningVar, float momentum, Tensor y);

    /** Batch normalisation in evaluation mode, with the running statistics. {@code y} may be {@code x}. */
    void batchNormInference(Tensor x, Tensor gamma, Tensor beta, Tensor runningMean, Tensor runningVar, float eps,
                            Tensor y);

    /**
     * The backward pass of {@link #batchNorm}: overwrites {@code dGamma} and {@code dBeta}, and writes {@code dx}
     * unless it is null; {@code dx} may be {@code dy}.
     */
    void batchNormBackward(Tensor x, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd, Tensor dGamma,
                           Tensor dBeta, Tensor dx);

    /**
     * {@link #batchNorm} followed by {@link #relu} over its output, {@code y = max(batchNorm(x), 0)}, to the same
     * bits; a backend may do both in one pass over {@code y}.
     */
    default void batchNormRelu(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd,
                               Tensor runningMean, Tensor runningVar, float momentum, Tensor y) {
        batchNorm(x, gamma, beta, eps, mean, invStd, runningMean, runningVar, momentum, y);
        relu(y, y);
    }

    /**
     * The backward pass of {@link #batchNormRelu} whose output was {@code y}: {@link #reluBackward} over {@code dy},
     * then {@link #batchNormBackward}, to the same bits. {@code dy} may be overwritten with its masked values (a
     * backend may instead mask as it reads); {@code dx} may be {@code dy}.
     */
    default void batchNormReluBackward(Tensor x, Tensor y, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd,
                                       Tensor dGamma, Tensor dBeta, Tensor dx) {
        reluBackward(y, dy);
        batchNormBackward(x, dy, gamma, mean, invStd, dGamma, dBeta, dx);
    }

    /**
     * Inverted dropout: each value is zeroed with probability {@code p} and the rest scaled by {@code 1/(1 − p)}.
     *
     * <p>The mask is a pure function of ({@code seed}, {@code stream}, row, column): running the same call on a
     * gradient applies the same mask, which is the backward pass. With {@code channels > 0} whole channels of
     * channels-last images are dropped together (column j of a row belongs to channel {@code j % channels}); with
     * 0 every value is on its own. {@code y} may be {@code x}.
     */
    void dropout(Tensor x, float p, int channels, long seed, long stream, Tensor y);

    /**
     * One Adam step in place, PyTorch's {@code torch.optim.Adam} for step {@code t} (counted from 1):
     * {@code d = grad + weightDecay·params; m ← beta1·m + (1 − beta1)·d; v ← beta2·v + (1 − beta2)·d²;
     * params ← params − lr/(1 − beta1^t) · m / (√v / √(1 − beta2^t) + eps)}.
     *
     * <p>All four tensors have the same size; {@code grad} is not modified. The bias corrections are computed in
     * double precision from {@code t}, the element-wise arithmetic in float32.
     */
    void adamUpdate(Tensor params, Tensor grad, Tensor m, Tensor v, float lr, float beta1, float beta2, float eps,
                    float weightDecay, long t);

    /**
     * Layer normalisation of each row of {@code x} (rows × n) over its n values: {@code y = gamma·(x − mean)·invStd
     * + beta}, {@code invStd = 1/sqrt(biased var + eps)}, each row's mean and invStd written (rows × 1) for the
     * backward pass; {@code gamma} and {@code beta} are 1 × n. {@code y} may be {@code x}.
     */
    void layerNorm(Tensor x, Tensor gamma, Tensor beta, float eps, Tensor mean, Tensor invStd, Tensor y);

    /**
     * The backward pass of {@link #layerNorm}: overwrites {@code dGamma} and {@code dBeta} (1 × n) with the column
     * sums of their gradients and writes {@code dx} unless it is null; {@code dx} may be {@code dy}.
     */
    void layerNormBackward(Tensor x, Tensor dy, Tensor gamma, Tensor mean, Tensor invStd, Tensor dGamma,
                           Tensor dBeta, Tensor dx);

    /** {@code y = x·Φ(x)}, the exact (erf) GELU, PyTorch's default; {@code y} may be {@code x}. */
    void gelu(Tensor x, Tensor y);

    /** The backward pass of {@link #gelu}: {@code dx = dy·(Φ(x) + x·φ(x))}; {@code dx} may be {@code dy}. */
    void geluBackward(Tensor x, Tensor dy, Tensor dx);

    /** The softmax of each row of {@code x} into {@code y}; {@code y} may be {@code x}. */
    void softmaxRows(Tensor x, Tensor y);

    /**
     * The backward pass of {@link #softmaxRows} from its output {@code y}: {@code dx = y·(dy − rowsum(dy·y))};
     * {@code dx} may be {@code dy}.
     */
    void softmaxRowsBackward(Tensor y, Tensor dy, Tensor dx);

    /**
     * {@code count} independent products {@link #gemm} of equal shapes: {@code a}, {@code b} and {@code c} each hold
     * {@code count} matrices stacked by rows (matrix i of {@code a} is its rows {@code [i·a.rows()/count, …)}), and
     * product i reads matrices i. By default one {@link #gemm} per product.
     */
    default void gemmBatched(boolean transA, boolean transB, float alpha, Tensor a, Tensor b, float beta, Tensor c,
                             int count) {
        int[] r = Shapes.batchedRows(count, a, b, c);
        for (int i = 0; i < count; i++) {
            gemm(transA, transB, alpha, a.rowRange(i * r[0], r[0]), b.rowRange(i * r[1], r[1]), beta,
                    c.rowRange(i * r[2], r[2]));
        }
    }

    /**
     * Swaps the two middle axes of {@code x} seen as {@code [outer][a][b][inner]}: {@code y[o][j][i][k] =
     * x[o][i][j][k]}; both hold outer·a·b·inner values and {@code y} is not {@code x}. Attention splits tokens into
     * heads and merges them back with it.
     */
    void swapAxes(Tensor x, int outer, int a, int b, int inner, Tensor y);

    /**
     * Copies columns {@code [srcColumn, srcColumn + width)} of each row of {@code src} to columns {@code
     * [dstColumn, dstColumn + width)} of the same row of {@code dst}; both have the same rows, other columns of
     * {@code dst} are left alone.
     */
    void copyColumns(Tensor src, int srcColumn, Tensor dst, int dstColumn, int width);

    /**
     * An embedding lookup: row i of {@code out} (m × e) becomes row {@code ids[i]} of {@code table} (v × e);
     * {@code ids} is m×1 and holds row indices as floats (exact up to 2^24), each in [0, v).
     */
    void embedding(Tensor table, Tensor ids, Tensor out);

    /**
     * The backward pass of {@link #embedding}: adds row i of {@code dy} (m × e) to row {@code ids[i]} of
     * {@code dTable} (v × e), for i in increasing order, so repeated ids sum in a fixed order; other rows keep
     * their values (an untied embedding fills {@code dTable} with 0 first).
     */
    void embeddingBackward(Tensor dy, Tensor ids, Tensor dTable);

    /**
     * One step of an LSTM cell for a batch of b sequences with h units: {@code gates} (b × 4h) holds the
     * pre-activations of the input, forget, cell and output gates (PyTorch's order i, f, g, o), which are replaced
     * by their activations (σ, σ, tanh, σ); then {@code c = f·cPrev + i·g} and {@code h = o·tanh(c)}, both b × h.
     * σ and tanh are computed in double precision from the float pre-activation and rounded once.
     */
    void lstmCell(Tensor gates, Tensor cPrev, Tensor c, Tensor h);

    /**
     * The backward pass of {@link #lstmCell}: from the activated {@code gates}, {@code cPrev} and {@code c} of the
     * forward step, the gradient {@code dh} of its output and {@code dc} of its cell state (from the later step;
     * zero for the last), writes the gradient of the four pre-activations to {@code dGates} (b × 4h; may be
     * {@code gates}) and replaces {@code dc} by the gradient of {@code cPrev}.
     */
    void lstmCellBackward(Tensor gates, Tensor cPrev, Tensor c, Tensor dh, Tensor dc, Tensor dGates);

    /**
     * Waits until every operation queued so far has finished, for timing; a backend that runs each operation before
     * returning (the CPU) does nothing.
     */
    default void synchronize() {
    }

    /**
     * Marks the start of a training step whose work repeats step after step (the same operations on the same
     * buffers, its scalars aside). A backend may queue nothing until {@link #endStep()} and then replay the whole step
     * as one graph; reading a result inside the step (a download, a loss returned as a number) is allowed but makes
     * that step run as usual. The CPU backend runs every operation at once and ignores both calls.
     */
    default void beginStep() {
    }

    /** Ends the step {@link #beginStep()} began: its work is queued (not necessarily finished) when this returns. */
    default void endStep() {
    }

    /**
     * Whether the steps {@link #beginStep()} brackets may be replayed as graphs now: false where this backend runs
     * every operation as usual, and once it has turned graphs off. Only a timing depends on it: work queued in a
     * replayed step is not waited for to time it.
     */
    default boolean replaysSteps() {
        return false;
    }

    /**
     * How the steps {@link #beginStep()} bracketed ran so far, in words, for a benchmark or a log (the CUDA backend:
     * how many replayed as graphs, how many began while the graph before still ran); empty where steps run as usual.
     */
    default String stepGraphs() {
        return "";
    }

    /**
     * Queues the operations that follow in lane {@code lane} of the step under way (0 or more: a worker's pass, its
     * clipping and its encode), or outside every lane ({@code -1}: what the workers share). A backend that replays
     * steps as graphs ({@link #runsLanesAtOnce()}) may run a step's lanes at the same time, ordered only where they
     * touch the same memory, and so computes the same bits as when they run one after another; the others ignore it.
     * Lanes that run at the same time need workspaces of their own.
     */
    default void lane(int lane) {
    }

    /** Whether a step's lanes ({@link #lane}) may run at the same time here. */
    default boolean runsLanesAtOnce() {
        return false;
    }

    /**
     * Declares that a step's lanes only read {@code t} (the parameters) while they run, so that reading it orders
     * nothing; the operations outside the lanes may write it.
     */
    default void readInLanes(Tensor t) {
    }

    /**
     * Declares that a step's lanes write {@code t} in disjoint slices, each through a view of its own (the running
     * statistics: one slice a layer, written by each lane in turn), so that lanes are ordered only where they address
     * the same slice.
     */
    default void slicedInLanes(Tensor t) {
    }

    /** PowerSGD's step of {@code shapes} on this backend's device, or empty where it runs on the host. */
    default java.util.Optional<DevicePowerIteration> powerIteration(LowRankShapes shapes) {
        return java.util.Optional.empty();
    }

    /** The codec of compressors' payloads that runs on this backend's device, or empty where the host encodes. */
    default java.util.Optional<DeviceCodec> deviceCodec() {
        return java.util.Optional.empty();
    }

    /** Releases every buffer this backend allocated. */
    @Override
    void close();
}
