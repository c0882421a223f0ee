package org.gridrun.engine.backend.cuda;

/**
 * Element-wise operations, random fills, dropout and the optimizer steps on the GPU ({@code elementwise.cu}); sizes
 * were checked by the caller and are positive.
 */
final class CudaElementwise {
    private final Gpu gpu;

    CudaElementwise(Gpu gpu) {
        this.gpu = gpu;
    }

    /** See {@code Backend#fillUniform}: the same values as the CPU backend's {@code CounterRng} draws. */
    void fillUniform(long x, int n, float low, float high, long seed, long stream) {
        throw new UnsupportedOperationException("fillUniform is not on cuda yet");
    }

    /** {@code x ← alpha·x}. */
    void scale(float alpha, long x, int n) {
        throw new UnsupportedOperationException("scale is not on cuda yet");
    }

    /** {@code y ← alpha·x + y}. */
    void axpy(float alpha, long x, long y, int n) {
        throw new UnsupportedOperationException("axpy is not on cuda yet");
    }

    /** Adds the row {@code row} (cols values) to each of the {@code rows} rows of {@code x}. */
    void addRowVector(long row, long x, int rows, int cols) {
        throw new UnsupportedOperationException("addRowVector is not on cuda yet");
    }

    /** {@code y ← max(x, 0)}. */
    void relu(long x, long y, int n) {
        throw new UnsupportedOperationException("relu is not on cuda yet");
    }

    /** Zeroes {@code grad} where {@code y} is not positive (NaN included), as the CPU backend does. */
    void reluBackward(long y, long grad, int n) {
        throw new UnsupportedOperationException("reluBackward is not on cuda yet");
    }

    /** See {@code Backend#dropout}: the same mask as the CPU backend for the same (seed, stream). */
    void dropout(long x, int rows, int cols, float p, int channels, long seed, long stream, long y) {
        throw new UnsupportedOperationException("dropout is not on cuda yet");
    }

    /** See {@code Backend#sgdUpdate}; {@code velocity} is 0 when {@code momentum} is 0. */
    void sgd(long params, long grad, long velocity, int n, float lr, float momentum, boolean nesterov,
             float weightDecay) {
        throw new UnsupportedOperationException("sgdUpdate is not on cuda yet");
    }

    /** See {@code Backend#adamUpdate}, with the step's scalars computed as the CPU backend does. */
    void adam(long params, long grad, long m, long v, int n, float stepSize, float beta1, float beta2, float eps,
              float correction2Sqrt, float weightDecay) {
        throw new UnsupportedOperationException("adamUpdate is not on cuda yet");
    }
}
