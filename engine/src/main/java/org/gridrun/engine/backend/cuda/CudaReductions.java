package org.gridrun.engine.backend.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reductions on the GPU ({@code reduce.cu}, {@code norm.cu}): column sums, softmax cross-entropy, accuracy and
 * batch normalisation. Every sum has a fixed order (per-block partial sums in scratch, then one pass over them), so
 * the results are the same bits run to run; no atomics.
 *
 * <p>Column sums and the batch-norm statistics are two-stage: a grid of 32-column tiles × chunks of rows writes
 * double partial sums to {@link Scratch.Slot#PARTIALS}, then one warp per column adds them. The chunk size depends
 * only on the shape ({@link #rowsPerChunk}, {@link #runsPerChunk}), so the order of the additions, and therefore
 * the bits, never change.
 * Softmax cross-entropy and accuracy take one warp per row and one block to add the rows; a label that is not a
 * class index is flagged in {@link Scratch.Slot#RESULT} and reported, with the CPU backend's message, when the sum is
 * downloaded.
 */
final class CudaReductions {
    /** Blocks the first stage of a column reduction aims for: 8 blocks of 256 threads on each of an H100's 132 SMs. */
    static final int TARGET_BLOCKS = 1056;
    /** The fewest rows a chunk gets (8 per thread), so that small inputs do not spread over many tiny blocks. */
    static final int MIN_ROWS_PER_CHUNK = 64;
    /** Columns per tile of the first stage, and its rows in flight (the kernels' block is 32 × 8). */
    private static final int TILE_COLS = 32;
    private static final int TILE_ROWS = 8;
    /** Rows (or columns) per block of 256 threads in the one-warp-per-row (column) kernels. */
    private static final int WARPS = 8;
    /** Rows per run of the batch-norm sums ({@code CpuNormKernels.RUN}). */
    private static final int RUN = 32;

    private final Gpu gpu;
    private final Scratch scratch;
    private final byte[] result = new byte[16];

    CudaReductions(Gpu gpu, Scratch scratch) {
        this.gpu = gpu;
        this.scratch = scratch;
    }

    /**
     * The rows of each chunk of a two-stage column reduction of a {@code rows × cols} matrix: enough chunks that
     * the tiles × chunks grid has about {@link #TARGET_BLOCKS} blocks, none smaller than {@link #MIN_ROWS_PER_CHUNK}
     * rows. A function of the shape alone.
     */
    static int rowsPerChunk(int rows, int cols) {
        int tiles = Launches.ceilDiv(cols, TILE_COLS);
        int wanted = Math.max(1, TARGET_BLOCKS / tiles);
        return Math.max(MIN_ROWS_PER_CHUNK, Launches.ceilDiv(rows, wanted));
    }

    /** {@code out ← beta·out + column sums of x} (rows × cols). */
    void columnSums(long x, int rows, int cols, float beta, long out) {
        int perChunk = rowsPerChunk(rows, cols);
        int chunks = Math.max(1, Launches.ceilDiv(rows, perChunk));
        long partials = scratch.bytes(Scratch.Slot.PARTIALS, 8L * chunks * cols);
        if (rows > 0) {
            gpu.launch("gr_column_partials", Launches.ceilDiv(cols, TILE_COLS), chunks, 1, TILE_COLS, TILE_ROWS, 1,
                    KernelArgs.of().address(x).i32(rows).i32(cols).i32(perChunk).address(partials));
        } else {
            gpu.fill32(partials, 0, 2L * cols);
        }
        gpu.launch("gr_column_finish", Launches.ceilDiv(cols, WARPS), 1, 1, 32 * WARPS, 1, 1,
                KernelArgs.of().address(partials).i32(chunks).i32(cols).f32(beta).address(out));
    }

    /**
     * See {@code Backend#softmaxCrossEntropy}; {@code grad} is 0 when not wanted. A label that is not a class index
     * fails with the CPU backend's message.
     */
    double softmaxCrossEntropy(long logits, int rows, int cols, long labels, long grad, float gradScale) {
        long out = scratch.bytes(Scratch.Slot.RESULT, result.length);
        softmaxCrossEntropy(logits, rows, cols, labels, grad, gradScale, out);
        return readRows(out, cols);
    }

    /**
     * As above, leaving the sum and the first row whose label is not a class index at {@code out} (16 bytes:
     * {@link #readRows}' layout) without waiting.
     */
    void softmaxCrossEntropy(long logits, int rows, int cols, long labels, long grad, float gradScale, long out) {
        long rowLoss = scratch.bytes(Scratch.Slot.PARTIALS, 8L * rows);
        gpu.launch("gr_softmax_xent_rows", Launches.ceilDiv(rows, WARPS), 1, 1, 32 * WARPS, 1, 1,
                KernelArgs.of().address(logits).i32(rows).i32(cols).address(labels).address(grad).f32(gradScale)
                        .address(rowLoss));
        finishRows(rowLoss, rows, labels, cols, out);
    }

    /** See {@code Backend#countCorrect}; ties go to the first largest logit, as on the CPU. */
    int countCorrect(long logits, int rows, int cols, long labels) {
        long rowHit = scratch.bytes(Scratch.Slot.PARTIALS, 8L * rows);
        gpu.launch("gr_count_correct_rows", Launches.ceilDiv(rows, WARPS), 1, 1, 32 * WARPS, 1, 1,
                KernelArgs.of().address(logits).i32(rows).i32(cols).address(labels).address(rowHit));
        long out = scratch.bytes(Scratch.Slot.RESULT, result.length);
        finishRows(rowHit, rows, labels, cols, out);
        return (int) readRows(out, cols);
    }

    /**
     * Adds the per-row values on the GPU into {@code out}: the sum (a double), then the first row whose label is not
     * a class index (an int, −1 for none) and that label (a float).
     */
    private void finishRows(long rowValues, int rows, long labels, int classes, long out) {
        gpu.launch("gr_rows_finish", 1, 1, 1, 256, 1, 1,
                KernelArgs.of().address(rowValues).i32(rows).address(labels).i32(classes).address(out));
    }

    /**
     * Downloads the sum {@link #finishRows} left at {@code out}; a row whose label is not a class index fails as
     * {@code CpuKernels.label} does (the CPU stops at the first such row).
     */
    double readRows(long out, int classes) {
        gpu.downloadBytes(out, result, result.length);
        return rowsSum(ByteBuffer.wrap(result).order(ByteOrder.LITTLE_ENDIAN), 0, classes);
    }

    /**
     * The sum at {@code at} of {@code finished} ({@link #finishRows}' layout), failing on its bad label, which the
     * layout holds: a sum read a step late finds the next batch's labels in the buffer.
     */
    static double rowsSum(ByteBuffer finished, int at, int classes) {
        if (finished.getInt(at + 8) >= 0) {
            throw new IllegalArgumentException("label must be a class index in [0, " + classes + "), found "
                    + finished.getFloat(at + 12));
        }
        return finished.getDouble(at);
    }

    /** See {@code Backend#batchNorm}; {@code runningMean} and {@code runningVar} are 0 when not updated. */
    void batchNorm(long x, int rows, int channels, long gamma, long beta, float eps, long mean, long invStd,
                   long runningMean, long runningVar, float momentum, long y) {
        int perChunk = runsPerChunk(rows, channels);
        int chunks = Launches.ceilDiv(runs(rows), perChunk);
        long partials = scratch.bytes(Scratch.Slot.PARTIALS, 24L * chunks * channels + 4L * channels);
        long scale = partials + 24L * chunks * channels;
        gpu.launch("gr_bn_partials", Launches.ceilDiv(channels, TILE_COLS), chunks, 1, TILE_COLS, TILE_ROWS, 1,
                KernelArgs.of().address(x).address(0).address(0).i32(rows).i32(channels).i32(perChunk)
                        .address(partials));
        gpu.launch("gr_bn_stats", Launches.ceilDiv(channels, WARPS), 1, 1, 32 * WARPS, 1, 1,
                KernelArgs.of().address(partials).i32(chunks).i32(rows).i32(channels).address(gamma).f32(eps)
                        .address(mean).address(invStd).address(runningMean).address(runningVar).f32(momentum)
                        .address(scale));
        normalize(x, 0, rows, channels, mean, scale, 0, beta, y);
    }

    /**
     * The runs of the batch-norm sums: {@code CpuNormKernels} adds in float over runs of 32 rows from the start of
     * each half of the rows, and {@code norm.cu} keeps those runs so that the mean rounds alike.
     */
    static int runs(int rows) {
        int half = rows / 2;
        return Launches.ceilDiv(half, RUN) + Launches.ceilDiv(rows - half, RUN);
    }

    /**
     * The runs of each chunk of the batch-norm sums: about {@link #TARGET_BLOCKS} blocks, and at least one run for
     * each of the 8 rows of threads of a block. A function of the shape alone.
     */
    static int runsPerChunk(int rows, int channels) {
        int tiles = Launches.ceilDiv(channels, TILE_COLS);
        int wanted = Math.max(1, TARGET_BLOCKS / tiles);
        return Math.max(TILE_ROWS, Launches.ceilDiv(runs(rows), wanted));
    }

    /** See {@code Backend#batchNormInference}. */
    void batchNormInference(long x, int rows, int channels, long gamma, long beta, long runningMean,
                            long runningVar, float eps, long y) {
        long scale = scratch.floats(Scratch.Slot.PARTIALS, channels);
        gpu.launch("gr_bn_inference_scale", Launches.blocks(channels, Launches.THREADS), 1, 1, Launches.THREADS,
                1, 1, KernelArgs.of().address(gamma).address(runningVar).f32(eps).i32(channels).address(scale));
        normalize(x, 0, rows, channels, runningMean, scale, 0, beta, y);
    }

    /**
     * {@code y = (x − centre)·scale + shift} per channel, plus {@code gScale·g} when {@code g} is not 0 (the
     * backward pass's {@code dx}).
     */
    private void normalize(long x, long g, int rows, int channels, long centre, long scale, long gScale, long shift,
                           long y) {
        gpu.launch("gr_bn_normalize", Launches.blocks((long) rows * channels, Launches.THREADS), 1, 1,
                Launches.THREADS, 1, 1, KernelArgs.of().address(x).address(g).i32(rows).i32(channels)
                        .address(centre).address(scale).address(gScale).address(shift).address(y));
    }

    /** See {@code Backend#batchNormBackward}; {@code dx} is 0 when not wanted. */
    void batchNormBackward(long x, long dy, int rows, int channels, long gamma, long mean, long invStd, long dGamma,
                           long dBeta, long dx) {
        int perChunk = runsPerChunk(rows, channels);
        int chunks = Launches.ceilDiv(runs(rows), perChunk);
        long partials = scratch.bytes(Scratch.Slot.PARTIALS, 24L * chunks * channels + 12L * channels);
        long coefficients = partials + 24L * chunks * channels;
        gpu.launch("gr_bn_partials", Launches.ceilDiv(channels, TILE_COLS), chunks, 1, TILE_COLS, TILE_ROWS, 1,
                KernelArgs.of().address(x).address(dy).address(mean).i32(rows).i32(channels).i32(perChunk)
                        .address(partials));
        gpu.launch("gr_bn_backward_stats", Launches.ceilDiv(channels, WARPS), 1, 1, 32 * WARPS, 1, 1,
                KernelArgs.of().address(partials).i32(chunks).i32(rows).i32(channels).address(gamma)
                        .address(invStd).address(dGamma).address(dBeta).address(coefficients));
        if (dx != 0) {
            normalize(x, dy, rows, channels, mean, coefficients + 4L * channels, coefficients,
                    coefficients + 8L * channels, dx);
        }
    }
}
