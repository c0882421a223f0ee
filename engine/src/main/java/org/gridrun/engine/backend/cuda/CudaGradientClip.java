package org.gridrun.engine.backend.cuda;

/**
 * Gradient-norm clipping on the GPU ({@code gr_clip_to_norm} in {@code chains.cu}): the squared norm summed in the
 * host's chunked chains ({@link CudaChainSums}) into a device double, then every value scaled where the norm exceeds
 * the bound, all queued without waiting, so a step that clips can still be one CUDA graph. The bits are the host's
 * {@code GradientClip}'s.
 */
final class CudaGradientClip implements AutoCloseable {
    private final Gpu gpu;
    private final CudaChainSums sums;
    private final Upload squares;

    CudaGradientClip(Gpu gpu) {
        this.gpu = gpu;
        this.sums = new CudaChainSums(gpu);
        this.squares = new Upload(gpu);
    }

    /** Clips the {@code n} floats at {@code gradient} to L2 norm {@code maxNorm}. */
    void clip(long gradient, long n, double maxNorm) {
        if (n == 0) {
            return;
        }
        long sum = squares.reserve(8);
        sums.sum(gradient, n, CudaChainSums.Term.SQUARE, sum);
        Launches.linear(gpu, "gr_clip_to_norm", n, KernelArgs.of().address(gradient).i64(n).address(sum)
                .i64(Double.doubleToRawLongBits(maxNorm)));
    }

    @Override
    public void close() {
        sums.close();
        squares.free();
    }
}
