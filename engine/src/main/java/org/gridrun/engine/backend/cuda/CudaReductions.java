package org.gridrun.engine.backend.cuda;

/**
 * Reductions on the GPU ({@code reduce.cu}, {@code norm.cu}): column sums, softmax cross-entropy, accuracy and
 * batch normalisation. Every sum has a fixed order (per-block partial sums in scratch, then one pass over them), so
 * the results are the same bits run to run; no atomics.
 */
final class CudaReductions {
    private final Gpu gpu;
    private final Scratch scratch;

    CudaReductions(Gpu gpu, Scratch scratch) {
        this.gpu = gpu;
        this.scratch = scratch;
    }

    /** {@code out ← beta·out + column sums of x} (rows × cols). */
    void columnSums(long x, int rows, int cols, float beta, long out) {
        throw new UnsupportedOperationException("columnSums is not on cuda yet");
    }

    /**
     * See {@code Backend#softmaxCrossEntropy}; {@code grad} is 0 when not wanted. A label that is not a class index
     * fails with the CPU backend's message.
     */
    double softmaxCrossEntropy(long logits, int rows, int cols, long labels, long grad, float gradScale) {
        throw new UnsupportedOperationException("softmaxCrossEntropy is not on cuda yet");
    }

    /** See {@code Backend#countCorrect}; ties go to the first largest logit, as on the CPU. */
    int countCorrect(long logits, int rows, int cols, long labels) {
        throw new UnsupportedOperationException("countCorrect is not on cuda yet");
    }

    /** See {@code Backend#batchNorm}; {@code runningMean} and {@code runningVar} are 0 when not updated. */
    void batchNorm(long x, int rows, int channels, long gamma, long beta, float eps, long mean, long invStd,
                   long runningMean, long runningVar, float momentum, long y) {
        throw new UnsupportedOperationException("batchNorm is not on cuda yet");
    }

    /** See {@code Backend#batchNormInference}. */
    void batchNormInference(long x, int rows, int channels, long gamma, long beta, long runningMean,
                            long runningVar, float eps, long y) {
        throw new UnsupportedOperationException("batchNormInference is not on cuda yet");
    }

    /** See {@code Backend#batchNormBackward}; {@code dx} is 0 when not wanted. */
    void batchNormBackward(long x, long dy, int rows, int channels, long gamma, long mean, long invStd, long dGamma,
                           long dBeta, long dx) {
        throw new UnsupportedOperationException("batchNormBackward is not on cuda yet");
    }
}
