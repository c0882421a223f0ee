package org.gridrun.engine.backend.cuda;

import java.util.ArrayList;
import java.util.List;

/**
 * Gradient-norm clipping on the GPU ({@code gr_clip_to_norm} in {@code chains.cu}): the squared norm summed in the
 * host's chunked chains ({@link CudaChainSums}) into a device double, then every value scaled where the norm exceeds
 * the bound, all queued without waiting, so a step that clips can still be one CUDA graph. The bits are the host's
 * {@code GradientClip}'s. Each slot (a worker) has its own buffers, so that workers' clippings in a step's graph
 * do not wait for each other.
 */
final class CudaGradientClip implements AutoCloseable {
    private final Gpu gpu;
    /** Each slot's (a worker's) chains and squared norm. */
    private final List<CudaChainSums> sums = new ArrayList<>();
    private final List<Upload> squares = new ArrayList<>();

    CudaGradientClip(Gpu gpu) {
        this.gpu = gpu;
    }

    /** Clips the {@code n} floats at {@code gradient} to L2 norm {@code maxNorm}, in slot {@code slot}'s buffers. */
    void clip(int slot, long gradient, long n, double maxNorm) {
        if (n == 0) {
            return;
        }
        while (sums.size() <= slot) {
            sums.add(new CudaChainSums(gpu));
            squares.add(new Upload(gpu));
        }
        long sum = squares.get(slot).reserve(8);
        sums.get(slot).sum(gradient, n, CudaChainSums.Term.SQUARE, sum);
        Launches.linear(gpu, "gr_clip_to_norm", n, KernelArgs.of().address(gradient).i64(n).address(sum)
                .i64(Double.doubleToRawLongBits(maxNorm)));
    }

    @Override
    public void close() {
        sums.forEach(CudaChainSums::close);
        squares.forEach(Upload::free);
        sums.clear();
        squares.clear();
    }
}
