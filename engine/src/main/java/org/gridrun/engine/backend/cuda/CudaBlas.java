package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.ConvGeometry;

/**
 * Matrix products and convolutions on the GPU ({@code gemm.cu}, {@code conv.cu}); addresses are device addresses of
 * row-major float32 matrices, shapes were checked by the caller.
 */
final class CudaBlas {
    private final Gpu gpu;
    private final Scratch scratch;

    CudaBlas(Gpu gpu, Scratch scratch) {
        this.gpu = gpu;
        this.scratch = scratch;
    }

    /**
     * {@code c ← alpha·op(a)·op(b) + beta·c} with {@code op(a)} m×k, {@code op(b)} k×n, c m×n; {@code lda},
     * {@code ldb}, {@code ldc} are the row lengths of a, b and c as stored. With {@code beta = 0} c is not read.
     */
    void gemm(boolean transA, boolean transB, int m, int n, int k, float alpha, long a, int lda, long b, int ldb,
              float beta, long c, int ldc) {
        throw new UnsupportedOperationException("gemm is not on cuda yet");
    }

    /** See {@code Backend#im2col}: {@code x} holds {@code images} images, {@code cols} their patches. */
    void im2col(long x, int images, ConvGeometry g, long cols) {
        throw new UnsupportedOperationException("im2col is not on cuda yet");
    }

    /** See {@code Backend#col2im}: {@code dx} (images × g.inputSize()) is overwritten. */
    void col2im(long cols, int images, ConvGeometry g, long dx) {
        throw new UnsupportedOperationException("col2im is not on cuda yet");
    }

    /** See {@code Backend#convolve}: {@code w} is filters × patchSize, {@code y} images·outPositions × filters. */
    void convolve(long x, int images, ConvGeometry g, long w, int filters, long y) {
        throw new UnsupportedOperationException("convolve is not on cuda yet");
    }

    /** See {@code Backend#convolveWeightGradient}: {@code dw} (filters × patchSize) is overwritten. */
    void convolveWeightGradient(long x, int images, ConvGeometry g, long dy, int filters, long dw) {
        throw new UnsupportedOperationException("convolveWeightGradient is not on cuda yet");
    }

    /** See {@code Backend#flipKernels}: {@code out} is channels × kernelHeight·kernelWidth·filters. */
    void flipKernels(long w, int filters, ConvGeometry g, long out) {
        throw new UnsupportedOperationException("flipKernels is not on cuda yet");
    }
}
