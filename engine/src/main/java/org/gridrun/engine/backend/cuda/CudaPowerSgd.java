package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.DevicePowerIteration;
import org.gridrun.engine.backend.LowRankShapes;
import org.gridrun.engine.backend.Tensor;

/**
 * PowerSGD's step on the GPU ({@code lowrank.cu}), launch by launch in the order of the host's
 * {@code PowerSgdRounds.run}: each worker's {@code M = g + e} into its residual, the raw tensors' mean, then per power
 * iteration and compressed tensor {@code P = M·Q} per worker, their sum, its orthonormalisation (once more for the
 * workers after the first, which orthonormalise worker 0's {@code P̂} on the host), {@code Mᵀ·P̂} per worker, their
 * mean (the new Q) and {@code P̂·Qᵀ} added to the average and taken out of every residual; or the alternating
 * variant's half iterations ({@code PowerSgdRounds.alternate}). Nothing is downloaded, so a step replays as a graph;
 * {@link #close()} frees the buffers.
 */
final class CudaPowerSgd implements DevicePowerIteration, AutoCloseable {
    /** Threads of the orthonormalisation's block, one per chain of {@code Orthonormalizer}'s dot products. */
    private static final int ORTHONORMALIZE_THREADS = 128;

    private final Gpu gpu;
    private final LowRankShapes shapes;
    private final int workers;
    private final long n;
    /** The workers' residuals (M during a step), {@code n} floats each. */
    private final long residuals;
    private final long q;
    /** The alternating variant's kept P factors. */
    private final long p;
    private final long left;
    /** P̂ of the workers after the first, which the host orthonormalises once more from worker 0's. */
    private final long leftOthers;
    private final long sentLeft;
    private final long sentRight;
    private final int leftStride;
    private final int rightStride;
    /** The Householder workspace, in doubles. */
    private final long work;

    CudaPowerSgd(Gpu gpu, LowRankShapes shapes) {
        this.gpu = gpu;
        this.shapes = shapes;
        this.workers = shapes.workers();
        this.n = shapes.size();
        this.leftStride = Math.max(1, shapes.maxLeft());
        this.rightStride = Math.max(1, shapes.maxRight());
        this.residuals = zeros(4L * workers * n);
        this.q = zeros(4L * shapes.qSize());
        this.p = zeros(4L * shapes.pSize());
        this.left = zeros(4L * leftStride);
        this.leftOthers = zeros(4L * leftStride);
        this.sentLeft = zeros(4L * workers * leftStride);
        this.sentRight = zeros(4L * workers * rightStride);
        this.work = zeros(8L * (2L * Math.max(shapes.maxLeft(), shapes.maxRight()) + shapes.maxRank()));
    }

    private long zeros(long bytes) {
        long address = gpu.allocate(Math.max(8, bytes));
        gpu.fill32(address, 0, Math.max(2, bytes / 4));
        return address;
    }

    @Override
    public void uploadFactors(float[] values) {
        upload(values, q, shapes.qSize());
    }

    @Override
    public void fetchFactors(float[] values) {
        fetch(q, values, shapes.qSize());
    }

    @Override
    public void uploadLeftFactors(float[] values) {
        upload(values, p, shapes.pSize());
    }

    @Override
    public void fetchLeftFactors(float[] values) {
        fetch(p, values, shapes.pSize());
    }

    @Override
    public void uploadResidual(int worker, float[] residual) {
        upload(residual, residuals + 4 * worker * n, (int) n);
    }

    @Override
    public void fetchResidual(int worker, float[] residual) {
        fetch(residuals + 4 * worker * n, residual, (int) n);
    }

    private void upload(float[] values, long address, int count) {
        if (count > 0) {
            gpu.upload(values, 0, address, count);
        }
    }

    private void fetch(long address, float[] values, int count) {
        if (count > 0) {
            gpu.download(address, values, 0, count);
        }
    }

    @Override
    public void step(Tensor[] gradients, boolean compress, boolean[] sendsLeft, Tensor average) {
        long out = CudaBuffer.of(average);
        if (!compress) {
            for (int w = 0; w < workers; w++) {
                Launches.linear(gpu, "gr_lowrank_average", n, KernelArgs.of().address(CudaBuffer.of(gradients[w]))
                        .i64(n).i32(w).i32(workers).address(out));
            }
            return;
        }
        for (int w = 0; w < workers; w++) {
            Launches.linear(gpu, "gr_lowrank_start", n, KernelArgs.of().address(residuals + 4 * w * n)
                    .address(CudaBuffer.of(gradients[w])).i64(n).i32(shapes.keepResidual() ? 1 : 0));
        }
        if (n > 0) {
            gpu.fill32(out, 0, n);
        }
        for (int t = 0; t < shapes.tensors(); t++) {
            long count = (long) shapes.rows()[t] * shapes.columns()[t];
            if (shapes.ranks()[t] == 0 && count > 0) {
                Launches.linear(gpu, "gr_lowrank_raw", count, KernelArgs.of().address(residuals).i64(n)
                        .i32(workers).i64(shapes.offsets()[t]).i64(count).address(out));
            }
        }
        for (int iteration = 0; iteration < shapes.iterations(); iteration++) {
            for (int t = 0; t < shapes.tensors(); t++) {
                if (shapes.ranks()[t] > 0 && shapes.alternating()) {
                    alternate(t, sendsLeft[iteration], out);
                } else if (shapes.ranks()[t] > 0) {
                    iterate(t, out);
                }
            }
        }
    }

    /**
     * Half a power iteration on tensor {@code t} ({@code PowerSgdRounds.alternate}): the kept factor of the other side
     * orthonormalised in place, each worker's product with it, their mean (the factor sent) and the reconstruction.
     * Both sides launch the same grids, so that only arguments change from step to step.
     */
    private void alternate(int t, boolean left, long out) {
        int rows = shapes.rows()[t];
        int cols = shapes.columns()[t];
        int r = shapes.ranks()[t];
        long m = residuals + 4L * shapes.offsets()[t];
        long qt = q + 4L * shapes.qOffsets()[t];
        long pt = p + 4L * shapes.pOffsets()[t];
        long items = (long) Math.max(rows, cols) * r;
        orthonormalize(left ? qt : pt, left ? cols : rows, r);
        Launches.linear(gpu, "gr_lowrank_half", workers * items, KernelArgs.of().address(m).i64(n).i32(workers)
                .i32(rows).i32(cols).address(left ? qt : pt).i32(r).address(left ? sentLeft : sentRight)
                .i64(left ? leftStride : rightStride).i32(left ? 1 : 0));
        Launches.linear(gpu, "gr_lowrank_mean", items, KernelArgs.of().address(left ? sentLeft : sentRight)
                .i64(left ? leftStride : rightStride).i32(workers).i64((long) (left ? rows : cols) * r)
                .address(left ? pt : qt));
        share(pt, rows, qt, cols, r, out + 4L * shapes.offsets()[t], m);
    }

    /** One power iteration on tensor {@code t} ({@code PowerSgdRounds.compress}). */
    private void iterate(int t, long out) {
        int rows = shapes.rows()[t];
        int cols = shapes.columns()[t];
        int r = shapes.ranks()[t];
        long m = residuals + 4L * shapes.offsets()[t];
        long qt = q + 4L * shapes.qOffsets()[t];
        // a warp an item: blocks of 128 threads, 4 items
        gpu.launch("gr_lowrank_times", Launches.blocks((long) workers * r * rows, 4), 1, 1, 128, 1, 1, KernelArgs.of()
                .address(m).i64(n).i32(workers).i32(rows).i32(cols).address(qt).i32(r).address(sentLeft)
                .i64(leftStride));
        Launches.linear(gpu, "gr_lowrank_sum", (long) rows * r, KernelArgs.of().address(sentLeft).i64(leftStride)
                .i32(workers).i64((long) rows * r).address(left));
        orthonormalize(left, rows, r);
        if (workers > 1) {
            gpu.copy(left, leftOthers, 4L * rows * r);
            orthonormalize(leftOthers, rows, r);
        }
        Launches.linear(gpu, "gr_lowrank_transpose_times", (long) workers * r * cols, KernelArgs.of().address(m)
                .i64(n).i32(workers).i32(rows).i32(cols).address(left).address(leftOthers).i32(r)
                .address(sentRight).i64(rightStride));
        Launches.linear(gpu, "gr_lowrank_mean", (long) cols * r, KernelArgs.of().address(sentRight)
                .i64(rightStride).i32(workers).i64((long) cols * r).address(qt));
        share(left, rows, qt, cols, r, out + 4L * shapes.offsets()[t], m);
    }

    /** {@code P·Qᵀ} added to the tensor's average at {@code out} and taken out of every worker's M at {@code m}. */
    private void share(long pt, int rows, long qt, int cols, int r, long out, long m) {
        Launches.linear(gpu, "gr_lowrank_share", (long) rows * cols, KernelArgs.of().address(pt).i32(rows)
                .address(qt).i32(cols).i32(r).address(out).address(m).i64(n).i32(workers));
    }

    /** {@code Orthonormalizer.apply} on the {@code r} columns of {@code rows} values at {@code p}: one block. */
    private void orthonormalize(long p, int rows, int r) {
        orthonormalize(gpu, p, rows, r, work);
    }

    /** The same on {@code gpu}, with {@code work} of {@code 2·rows·r + r} doubles for Householder. */
    static void orthonormalize(Gpu gpu, long p, int rows, int r, long work) {
        gpu.launch("gr_lowrank_orthonormalize", 1, 1, 1, ORTHONORMALIZE_THREADS, 1, 1, KernelArgs.of().address(p)
                .i32(rows).i32(r).address(work));
    }

    @Override
    public void close() {
        for (long address : new long[] {residuals, q, p, left, leftOthers, sentLeft, sentRight, work}) {
            gpu.free(address);
        }
    }
}
