package org.gridrun.engine.backend;

import dev.ludovic.netlib.blas.BLAS;

/**
 * Convolutions of channels-last images as im2col and {@code sgemm} a few images at a time, so that each chunk's
 * patch matrix is still in cache when BLAS reads it.
 *
 * <p>The patch matrix of a whole batch ({@code [131072 × 144]} floats, 75 MB, for resnet20's first stage) went to
 * memory and back for every convolution, and once more for its weight gradient. Here each of the backend's two
 * threads unfolds chunks of its half of the batch into its own scratch of about {@value #CHUNK_VALUES} values and
 * multiplies it at once, with a BLAS call of its own (BLAS itself running one thread). The weight gradient sums
 * chunk after chunk into the first thread's output and the second thread's partial sum, added last: the order of
 * summation depends only on the shapes, never on thread timing.
 *
 * <p>The data gradient of a stride-1 "same" convolution is the forward convolution of the output gradient with the
 * kernels turned by 180° ({@link ConvGeometry#transposed}): an unfolding and one product with k·k·filters terms per
 * value, where the product with only {@code filters} terms and the col2im scatter did the same arithmetic slower.
 * Other data gradients multiply each chunk's output gradient by the weights into the patch scratch and fold it back
 * with col2im.
 */
final class CpuConvolution implements Convolver {
    /** The patch values one chunk aims at: 256 KiB, half an L2 cache of the machines measured. */
    static final int CHUNK_VALUES = 1 << 16;

    private final CpuGemm[] gemms;
    private final float[][] patches = {new float[0], new float[0]};
    private float[] partial = new float[0];
    private float[] flipped = new float[0];

    CpuConvolution(BLAS blas) {
        this.gemms = new CpuGemm[] {new CpuGemm(blas, false), new CpuGemm(blas, false)};
    }

    /** {@code y = im2col(x)·wᵀ} for {@code images} images; w is filters × patch, y (images·positions) × filters. */
    @Override
    public void forward(float[] x, int xo, ConvGeometry g, int images, float[] w, int wo, int filters, float[] y,
                        int yo) {
        int positions = g.outPositions();
        int patch = g.patchSize();
        chunks(g, images, filters, (slot, first, start, end) -> {
            float[] cols = unfold(slot, x, xo, g, start, end);
            gemms[slot].gemm(false, true, (end - start) * positions, filters, patch, 1f, cols, 0, patch, w, wo, patch,
                    0f, y, yo + start * positions * filters);
        });
    }

    /** {@code dw = dyᵀ·im2col(x)}: dy is (images·positions) × filters, dw filters × patch. */
    @Override
    public void weightGradient(float[] x, int xo, ConvGeometry g, int images, float[] dy, int dyo, int filters,
                               float[] dw, int dwo) {
        int positions = g.outPositions();
        int patch = g.patchSize();
        if (partial.length < filters * patch) {
            partial = new float[filters * patch];
        }
        boolean split = chunks(g, images, filters, (slot, first, start, end) -> {
            float[] cols = unfold(slot, x, xo, g, start, end);
            gemms[slot].gemm(true, false, filters, patch, (end - start) * positions, 1f, dy,
                    dyo + start * positions * filters, filters, cols, 0, patch, first ? 0f : 1f,
                    slot == 0 ? dw : partial, slot == 0 ? dwo : 0);
        });
        if (split) {
            for (int i = 0; i < filters * patch; i++) {
                dw[dwo + i] += partial[i];
            }
        }
    }

    /** {@code dx = col2im(dy·w)}, or the flipped kernels' forward convolution of dy where there is one. */
    @Override
    public void dataGradient(float[] dy, int dyo, ConvGeometry g, int images, float[] w, int wo, int filters,
                             float[] dx, int dxo) {
        ConvGeometry transposed = g.transposed(filters);
        if (transposed != null) {
            if (flipped.length < filters * g.patchSize()) {
                flipped = new float[filters * g.patchSize()];
            }
            CpuWindowKernels.flipKernels(w, wo, g, filters, flipped, 0);
            forward(dy, dyo, transposed, images, flipped, 0, g.channels(), dx, dxo);
            return;
        }
        int positions = g.outPositions();
        int patch = g.patchSize();
        chunks(g, images, filters, (slot, first, start, end) -> {
            float[] cols = scratch(slot, (end - start) * positions * patch);
            gemms[slot].gemm(false, false, (end - start) * positions, patch, filters, 1f, dy,
                    dyo + start * positions * filters, filters, w, wo, patch, 0f, cols, 0);
            CpuWindowKernels.col2im(cols, -start * positions * patch, g, dx, dxo, start, end);
        });
    }

    /** One chunk of a thread's images {@code [start, end)}; {@code first} when it is the thread's first chunk. */
    private interface Chunk {
        void run(int slot, boolean first, int start, int end);
    }

    /**
     * Runs {@code chunk} on each chunk of the batch, each backend thread over its half on its own slot; returns
     * whether the batch was split between two threads.
     */
    private static boolean chunks(ConvGeometry g, int images, int filters, Chunk chunk) {
        long work = (long) images * g.outPositions() * g.patchSize() * filters;
        CpuParallel.forEach(images, work, (from, to) -> {
            int slot = from == 0 ? 0 : 1;
            for (int start = from, step = chunk(g); start < to; start += step) {
                chunk.run(slot, start == from, start, Math.min(to, start + step));
            }
        });
        return CpuParallel.splits(images, work);
    }

    /** Images per chunk: as many as fit {@link #CHUNK_VALUES} patch values, at least one. */
    private static int chunk(ConvGeometry g) {
        return Math.max(1, CHUNK_VALUES / (g.outPositions() * g.patchSize()));
    }

    /** The patches of images {@code [start, end)} in the slot's scratch, from its row 0. */
    private float[] unfold(int slot, float[] x, int xo, ConvGeometry g, int start, int end) {
        int rowValues = g.outPositions() * g.patchSize();
        float[] cols = scratch(slot, (end - start) * rowValues);
        CpuWindowKernels.im2col(x, xo, g, cols, -start * rowValues, start, end);
        return cols;
    }

    /** The slot's patch scratch, grown to at least {@code values}. */
    private float[] scratch(int slot, int values) {
        if (patches[slot].length < values) {
            patches[slot] = new float[values];
        }
        return patches[slot];
    }
}
