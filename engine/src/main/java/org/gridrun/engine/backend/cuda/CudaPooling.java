package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.ConvGeometry;

/**
 * Pooling and the option-A shortcut on the GPU ({@code pool.cu}), for channels-last images; shapes were checked by
 * the caller. Backward passes gather (each input position sums what reaches it), so no atomics are needed.
 *
 * <p>All but the mean pool are one-dimensional grid-stride launches over the elements they write; the mean pool is
 * one block per row and tile of {@value #MEAN_TILE} channels, {@value #MEAN_LANES} lanes splitting the positions.
 */
final class CudaPooling {
    /** Channels per block of {@code gr_mean_pool}; its {@code MEAN_TILE}. */
    static final int MEAN_TILE = 32;
    /** Lanes per channel of {@code gr_mean_pool}; its {@code MEAN_LANES}. */
    static final int MEAN_LANES = 8;

    private final Gpu gpu;

    CudaPooling(Gpu gpu) {
        this.gpu = gpu;
    }

    /** See {@code Backend#maxPool}. */
    void maxPool(long x, int images, ConvGeometry g, long y) {
        long total = (long) images * g.outPositions() * g.channels();
        Launches.linear(gpu, "gr_max_pool", total, KernelArgs.of().address(x).address(y).i64(total)
                .i32(g.height()).i32(g.width()).i32(g.channels()).i32(g.kernelHeight()).i32(g.kernelWidth())
                .i32(g.stride()).i32(g.padding()).i32(g.outHeight()).i32(g.outWidth()));
    }

    /** See {@code Backend#maxPoolBackward}: {@code dx} is overwritten. */
    void maxPoolBackward(long x, long dy, int images, ConvGeometry g, long dx) {
        long total = (long) images * g.inputSize();
        Launches.linear(gpu, "gr_max_pool_backward", total, KernelArgs.of().address(x).address(dy).address(dx)
                .i64(total).i32(g.height()).i32(g.width()).i32(g.channels()).i32(g.kernelHeight())
                .i32(g.kernelWidth()).i32(g.stride()).i32(g.padding()).i32(g.outHeight()).i32(g.outWidth()));
    }

    /** See {@code Backend#meanPool}: {@code x} is rows × positions·channels, {@code y} rows × channels. */
    void meanPool(long x, int rows, int positions, int channels, long y) {
        int tiles = Math.min(Launches.MAX_BLOCKS, Launches.ceilDiv(channels, MEAN_TILE));
        gpu.launch("gr_mean_pool", rows, tiles, 1, MEAN_TILE, MEAN_LANES, 1, KernelArgs.of().address(x).address(y)
                .i32(positions).i32(channels).f32(1f / positions));
    }

    /** See {@code Backend#meanPoolBackward}: {@code dx} is overwritten. */
    void meanPoolBackward(long dy, int rows, int positions, int channels, long dx) {
        long total = (long) rows * positions * channels;
        Launches.linear(gpu, "gr_mean_pool_backward", total, KernelArgs.of().address(dy).address(dx).i64(total)
                .i32(positions).i32(channels).f32(1f / positions));
    }

    /** See {@code Backend#shortcut}: {@code y} is images × outH·outW·outChannels. */
    void shortcut(long x, int images, ConvGeometry g, int outChannels, int before, long y) {
        int outH = (g.height() - 1) / g.stride() + 1;
        int outW = (g.width() - 1) / g.stride() + 1;
        long total = (long) images * outH * outW * outChannels;
        Launches.linear(gpu, "gr_shortcut", total, KernelArgs.of().address(x).address(y).i64(total).i32(g.height())
                .i32(g.width()).i32(g.channels()).i32(g.stride()).i32(outH).i32(outW).i32(outChannels).i32(before));
    }

    /** See {@code Backend#shortcutBackward}: {@code dx} is overwritten. */
    void shortcutBackward(long dy, int images, ConvGeometry g, int outChannels, int before, long dx) {
        int outH = (g.height() - 1) / g.stride() + 1;
        int outW = (g.width() - 1) / g.stride() + 1;
        long total = (long) images * g.inputSize();
        Launches.linear(gpu, "gr_shortcut_backward", total, KernelArgs.of().address(dy).address(dx).i64(total)
                .i32(g.height()).i32(g.width()).i32(g.channels()).i32(g.stride()).i32(outH).i32(outW)
                .i32(outChannels).i32(before));
    }
}
