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

    /** How many rows of {@code logits} have their largest value at the class in {@code labels}. */
    int countCorrect(Tensor logits, Tensor labels);

    /**
     * One SGD step with momentum, in place: {@code d = grad + weightDecay·params; v ← momentum·v + d;
     * params ← params − lr·(nesterov ? d + momentum·v : v)}.
     *
     * <p>With {@code momentum = 0}, {@code velocity} is not read and may be null. The convention is PyTorch's
     * {@code torch.optim.SGD} with zero dampening.
     */
    void sgdUpdate(Tensor params, Tensor grad, Tensor velocity, float lr, float momentum, boolean nesterov,
                   float weightDecay);

    /** Releases every buffer this backend allocated. */
    @Override
    void close();
}
