package org.gridrun.engine.backend.cuda;

/**
 * The transformer's operations on the GPU ({@code sequence.cu}): layer norm and its gradients, the exact GELU, row
 * softmax, the axis swap of attention heads, column copies. Shapes were checked by the caller and are positive.
 *
 * <p>Row operations take a warp per row: its lanes load 32 values at a time (coalesced), and every lane then adds
 * them in column order, in double, as the CPU backend does, so their results are the CPU's. (They took a thread per
 * row before, each reading its row alone: a ViT step's 8,320 rows of layer norm on 65 blocks, and loads 32 rows
 * apart.) Layer norm's parameter gradients, sums over all the rows, take two passes over chunks of rows
 * ({@link Scratch.Slot#PARTIALS}).
 */
final class CudaSequence {
    /** Threads of a row kernel's block ({@code GR_SEQ_THREADS}): four warps, four rows. */
    private static final int ROW_THREADS = 128;

    /** Rows a block of the layer norm's parameter gradients sums in its first pass. */
    private static final int PARAM_CHUNK_ROWS = 256;

    private final Gpu gpu;
    private final Scratch scratch;

    CudaSequence(Gpu gpu, Scratch scratch) {
        this.gpu = gpu;
        this.scratch = scratch;
    }

    void layerNorm(long x, long gamma, long beta, int rows, int n, float eps, long mean, long invStd, long y) {
        perRow("gr_seq_layer_norm", rows, KernelArgs.of().address(x).address(gamma).address(beta).i32(rows).i32(n)
                .f32(eps).address(mean).address(invStd).address(y));
    }

    void layerNormBackward(long x, long dy, long gamma, long mean, long invStd, int rows, int n, long dGamma,
                           long dBeta, long dx) {
        int chunks = Launches.ceilDiv(rows, PARAM_CHUNK_ROWS);
        long partialGamma = scratch.bytes(Scratch.Slot.PARTIALS, 16L * chunks * n);
        long partialBeta = partialGamma + 8L * chunks * n;
        gpu.launch("gr_seq_layer_norm_params_chunks", Launches.ceilDiv(n, 32), chunks, 1, 256, 1, 1, KernelArgs.of()
                .address(x).address(dy).address(mean).address(invStd).i32(rows).i32(n).i32(PARAM_CHUNK_ROWS)
                .address(partialGamma).address(partialBeta));
        Launches.linear(gpu, "gr_seq_layer_norm_params_sum", n, KernelArgs.of().address(partialGamma)
                .address(partialBeta).i32(chunks).i32(n).address(dGamma).address(dBeta));
        if (dx != 0) {
            perRow("gr_seq_layer_norm_dx", rows, KernelArgs.of().address(x).address(dy).address(gamma)
                    .address(mean).address(invStd).i32(rows).i32(n).address(dx));
        }
    }

    void gelu(long x, long y, int n) {
        Launches.linear(gpu, "gr_seq_gelu", n, KernelArgs.of().address(x).address(y).i32(n));
    }

    void geluBackward(long x, long dy, long dx, int n) {
        Launches.linear(gpu, "gr_seq_gelu_backward", n, KernelArgs.of().address(x).address(dy).address(dx).i32(n));
    }

    void softmax(long x, long y, int rows, int n) {
        perRow("gr_seq_softmax", rows, KernelArgs.of().address(x).address(y).i32(rows).i32(n));
    }

    void softmaxBackward(long y, long dy, long dx, int rows, int n) {
        perRow("gr_seq_softmax_backward", rows, KernelArgs.of().address(y).address(dy).address(dx).i32(rows).i32(n));
    }

    void swapAxes(long x, long y, int outer, int a, int b, int inner) {
        Launches.linear(gpu, "gr_seq_swap_axes", (long) outer * a * b * inner, KernelArgs.of().address(x).address(y)
                .i32(outer).i32(a).i32(b).i32(inner));
    }

    void copyColumns(long src, int srcCols, int srcColumn, long dst, int dstCols, int dstColumn, int rows,
                     int width) {
        Launches.linear(gpu, "gr_seq_copy_columns", (long) rows * width, KernelArgs.of().address(src).i32(srcCols)
                .i32(srcColumn).address(dst).i32(dstCols).i32(dstColumn).i32(rows).i32(width));
    }

    private void perRow(String kernel, int rows, KernelArgs args) {
        gpu.launch(kernel, Launches.blocks(rows, ROW_THREADS / 32), 1, 1, ROW_THREADS, 1, 1, args);
    }
}
