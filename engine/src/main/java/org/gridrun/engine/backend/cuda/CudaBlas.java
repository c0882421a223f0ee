package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.ConvGeometry;

/**
 * Matrix products and convolutions on the GPU ({@code gemm.cu}, {@code conv.cu}); addresses are device addresses of
 * row-major float32 matrices, shapes were checked by the caller.
 *
 * <p>Every product, plain or convolution, runs one tiled kernel of 256 threads per {@code BM×BN} tile of the
 * result, {@code BM·BN = 4096}; {@link #shape} picks the tile shape that pads the result least ({@link #productShape}:
 * plain products large both ways take {@link #LARGE} 128×128 tiles instead). Products whose tiles
 * cannot fill the GPU but whose {@code k} is long (a convolution's weight gradient: {@code k} = images·positions)
 * are split along {@code k} ({@link #splits}): each split writes its partial product to the
 * {@link Scratch.Slot#SPLIT_K} scratch and {@code gr_gemm_reduce} adds them up in a fixed order. Convolutions never
 * materialise their patch matrix: the kernels compute each patch element's image address as they load a tile.
 */
final class CudaBlas {
    /** Threads per product block (fixed by the kernels). */
    static final int GEMM_THREADS = 256;

    /** The K depth of a tile slice; split-K chunks are multiples of it. */
    static final int SLICE = 16;

    /**
     * Blocks a product should have for the GPU to be busy: two per multiprocessor of an H100 (132), as the kernels
     * are bounded to two resident blocks each. Fewer tiles than this, and a long enough k, split k.
     */
    static final int FILL_BLOCKS = 2 * 132;

    /** The least k a split gets: eight slices, so that a split's loads and its partial store stay a small part. */
    static final int MIN_SPLIT_K = 8 * SLICE;

    /** The most blocks a grid has along z (CUDA's limit), so the most products of one batched launch. */
    static final int MAX_GRID_Z = 65_535;

    /** The tile shapes {@code {BM, BN}}, in order of preference when two pad alike (square first: fewer loads). */
    static final int[][] SHAPES = {{64, 64}, {128, 32}, {32, 128}, {256, 16}, {16, 256}};

    /**
     * The tile of the plain products large both ways ({@code gr_gemm_*_128x128}: 8×8 a thread, four times the
     * multiply-adds a shared-memory read of the 4096-element shapes), taken where it gives every multiprocessor a
     * tile and pads at most a quarter more than the best of {@link #SHAPES} ({@link #productShape}).
     */
    static final int[] LARGE = {128, 128};

    /** The shapes with a batched kernel ({@code gr_gemm_batched_*}): the 16-wide ones would spill registers. */
    static final int[][] BATCHED_SHAPES = {{64, 64}, {128, 32}, {32, 128}};

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
        int[] shape = productShape(m, n);
        int tiles = tiles(m, n, shape);
        int kChunk = kChunk(tiles, k);
        int splits = splits(k, kChunk);
        String kernel = productKernel(transA, transB, shape);
        if (splits == 1) {
            gpu.launch(kernel, tiles, 1, 1, GEMM_THREADS, 1, 1, KernelArgs.of().address(a).i32(lda).address(b)
                    .i32(ldb).address(c).i32(ldc).i32(m).i32(n).i32(k).f32(alpha).f32(beta).i32(kChunk).i64(0));
            return;
        }
        long stride = (long) m * n;
        long partial = scratch.floats(Scratch.Slot.SPLIT_K, splits * stride);
        gpu.launch(kernel, tiles, splits, 1, GEMM_THREADS, 1, 1, KernelArgs.of().address(a).i32(lda).address(b)
                .i32(ldb).address(partial).i32(n).i32(m).i32(n).i32(k).f32(1f).f32(0f).i32(kChunk).i64(stride));
        reduce(partial, splits, m, n, alpha, beta, c, ldc);
    }

    /**
     * {@code count} products {@link #gemm} of one shape, product i reading {@code a + i·strideA}, {@code b +
     * i·strideB} and writing {@code c + i·strideC} (strides in floats): one launch, the products along the grid's z,
     * where a launch per product made a ViT step thousands of launches of a few tiles each. Each element's sum runs
     * over k in order whatever the tile shape ({@link #BATCHED_SHAPES}), so a product has the bits {@link #gemm}
     * gives it alone; a shape that {@link #gemm} would split along k is run as {@code count} such products.
     */
    void gemmBatched(boolean transA, boolean transB, int m, int n, int k, float alpha, long a, int lda, long strideA,
                     long b, int ldb, long strideB, float beta, long c, int ldc, long strideC, int count) {
        int[] own = productShape(m, n);
        if (splits(k, kChunk(tiles(m, n, own), k)) > 1) {
            for (int i = 0; i < count; i++) {
                gemm(transA, transB, m, n, k, alpha, a + 4L * i * strideA, lda, b + 4L * i * strideB, ldb, beta,
                        c + 4L * i * strideC, ldc);
            }
            return;
        }
        int[] shape = shape(m, n, BATCHED_SHAPES);
        int tiles = tiles(m, n, shape);
        int kChunk = Math.max(k, 1);
        String kernel = "gr_gemm_batched_" + productKernel(transA, transB, shape).substring("gr_gemm_".length());
        for (int first = 0; first < count; first += MAX_GRID_Z) {
            int products = Math.min(MAX_GRID_Z, count - first);
            gpu.launch(kernel, tiles, 1, products, GEMM_THREADS, 1, 1, KernelArgs.of()
                    .address(a + 4L * first * strideA).i32(lda).address(b + 4L * first * strideB).i32(ldb)
                    .address(c + 4L * first * strideC).i32(ldc).i32(m).i32(n).i32(k).f32(alpha).f32(beta)
                    .i32(kChunk).i64(0).i64(strideA).i64(strideB).i64(strideC));
        }
    }

    /** The plain product kernel of these transposes and tile shape: {@code gr_gemm_nt_64x64}. */
    private static String productKernel(boolean transA, boolean transB, int[] shape) {
        return "gr_gemm_" + (transA ? 't' : 'n') + (transB ? 't' : 'n') + "_" + shape[0] + "x" + shape[1];
    }

    /** See {@code Backend#im2col}: {@code x} holds {@code images} images, {@code cols} their patches. */
    void im2col(long x, int images, ConvGeometry g, long cols) {
        long total = (long) images * g.outPositions() * g.patchSize();
        window("gr_im2col", x, cols, total, g);
    }

    /** See {@code Backend#col2im}: {@code dx} (images × g.inputSize()) is overwritten. */
    void col2im(long cols, int images, ConvGeometry g, long dx) {
        window("gr_col2im", cols, dx, (long) images * g.inputSize(), g);
    }

    /** See {@code Backend#convolve}: {@code w} is filters × patchSize, {@code y} images·outPositions × filters. */
    void convolve(long x, int images, ConvGeometry g, long w, int filters, long y) {
        convolution("gr_conv_forward_", x, w, y, images * g.outPositions(), filters, g.patchSize(), g);
    }

    /** See {@code Backend#convolveWeightGradient}: {@code dw} (filters × patchSize) is overwritten. */
    void convolveWeightGradient(long x, int images, ConvGeometry g, long dy, int filters, long dw) {
        convolution("gr_conv_weights_", dy, x, dw, filters, g.patchSize(), images * g.outPositions(), g);
    }

    /**
     * See {@code Backend#convolveDataGradient}: {@code dx} (images × g.inputSize()) is overwritten; the flipped
     * kernels' convolution of dy where there is one ({@link ConvGeometry#transposed}), else {@code col2im(dy·w)}.
     */
    void convolveDataGradient(long dy, int images, ConvGeometry g, long w, int filters, long dx) {
        ConvGeometry transposed = g.transposed(filters);
        if (transposed != null) {
            long flipped = scratch.floats(Scratch.Slot.KERNELS, (long) filters * g.patchSize());
            flipKernels(w, filters, g, flipped);
            convolve(dy, images, transposed, flipped, g.channels(), dx);
        } else {
            int rows = images * g.outPositions();
            long cols = scratch.floats(Scratch.Slot.PATCHES, (long) rows * g.patchSize());
            gemm(false, false, rows, g.patchSize(), filters, 1f, dy, filters, w, g.patchSize(), 0f, cols,
                    g.patchSize());
            col2im(cols, images, g, dx);
        }
    }

    /**
     * Each input channel's kernels of {@code w} (filters × patchSize) turned by 180°, with the filters together, into
     * {@code out} (channels × kernelHeight·kernelWidth·filters): the weights of the transposed convolution.
     */
    private void flipKernels(long w, int filters, ConvGeometry g, long out) {
        long total = (long) filters * g.patchSize();
        Launches.linear(gpu, "gr_flip_kernels", total,
                KernelArgs.of().address(w).address(out).i64(total).i32(filters).i32(g.channels())
                        .i32(g.kernelHeight()).i32(g.kernelWidth()));
    }

    /**
     * One implicit-GEMM convolution kernel ({@code prefix} + shape), split along k when its tiles are few; the
     * result (m×n, row length n) is written, not accumulated.
     */
    private void convolution(String prefix, long a, long b, long out, int m, int n, int k, ConvGeometry g) {
        int[] shape = shape(m, n);
        int tiles = tiles(m, n, shape);
        int kChunk = kChunk(tiles, k);
        int splits = splits(k, kChunk);
        long stride = (long) m * n;
        long target = splits == 1 ? out : scratch.floats(Scratch.Slot.SPLIT_K, splits * stride);
        gpu.launch(prefix + shape[0] + "x" + shape[1], tiles, splits, 1, GEMM_THREADS, 1, 1, KernelArgs.of()
                .address(a).address(b).address(target).i32(m).i32(n).i32(k).i32(g.height()).i32(g.width())
                .i32(g.channels()).i32(g.kernelHeight()).i32(g.kernelWidth()).i32(g.stride()).i32(g.padding())
                .i32(g.outHeight()).i32(g.outWidth()).i32(kChunk).i64(splits == 1 ? 0 : stride));
        if (splits > 1) {
            reduce(target, splits, m, n, 1f, 0f, out, n);
        }
    }

    /** {@code c ← alpha·Σ partial products + beta·c}, the splits added in order (see {@code gr_gemm_reduce}). */
    private void reduce(long partial, int splits, int m, int n, float alpha, float beta, long c, int ldc) {
        long elements = (long) m * n;
        gpu.launch("gr_gemm_reduce", Launches.ceilDiv(elements, 32), 1, 1, 32, 8, 1, KernelArgs.of()
                .address(partial).i32(splits).i64(elements).i32(n).address(c).i32(ldc).f32(alpha).f32(beta));
    }

    /** A one-element-per-thread window kernel over {@code total} elements: im2col and col2im. */
    private void window(String kernel, long src, long dst, long total, ConvGeometry g) {
        Launches.linear(gpu, kernel, total, KernelArgs.of()
                .address(src).address(dst).i64(total).i32(g.height()).i32(g.width()).i32(g.channels())
                .i32(g.kernelHeight()).i32(g.kernelWidth()).i32(g.stride()).i32(g.padding()).i32(g.outHeight())
                .i32(g.outWidth()));
    }

    /**
     * The tile shape of a plain m×n product: {@link #LARGE} where it has a tile for every multiprocessor (half of
     * {@link #FILL_BLOCKS}) and pads at most 5/4 of {@link #shape(int, int)}'s, else that shape.
     */
    static int[] productShape(int m, int n) {
        int[] best = shape(m, n);
        if (m < LARGE[0] || n < LARGE[1] || tiles(m, n, LARGE) < FILL_BLOCKS / 2) {
            return best;
        }
        return 4 * padded(m, n, LARGE) <= 5 * padded(m, n, best) ? LARGE : best;
    }

    /** The elements of an m×n result padded to whole tiles of {@code shape}. */
    private static long padded(int m, int n, int[] shape) {
        return (long) Launches.ceilDiv(m, shape[0]) * shape[0] * ((long) Launches.ceilDiv(n, shape[1]) * shape[1]);
    }

    /** The tile shape {@code {BM, BN}} that pads an m×n result least, the earlier of {@link #SHAPES} on a tie. */
    static int[] shape(int m, int n) {
        return shape(m, n, SHAPES);
    }

    /** {@link #shape(int, int)} among {@code shapes}. */
    static int[] shape(int m, int n, int[][] shapes) {
        int[] best = shapes[0];
        long bestPadded = Long.MAX_VALUE;
        for (int[] s : shapes) {
            long padded = padded(m, n, s);
            if (padded < bestPadded) {
                best = s;
                bestPadded = padded;
            }
        }
        return best;
    }

    /** The tiles of an m×n result in tiles of {@code shape}: the grid's x dimension. */
    static int tiles(int m, int n, int[] shape) {
        long tiles = (long) Launches.ceilDiv(m, shape[0]) * Launches.ceilDiv(n, shape[1]);
        if (tiles > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a " + m + "x" + n + " product has too many tiles");
        }
        return (int) tiles;
    }

    /**
     * The k each split of a product of {@code tiles} tiles takes, a multiple of {@link #SLICE}: all of k (one split)
     * when the tiles fill the GPU or k is short, else k shared among about {@code FILL_BLOCKS / tiles} splits of at
     * least {@link #MIN_SPLIT_K}.
     */
    static int kChunk(int tiles, int k) {
        int splits = (int) Math.min(Launches.ceilDiv(FILL_BLOCKS, tiles), k / MIN_SPLIT_K);
        if (splits <= 1) {
            return Math.max(k, 1);
        }
        return Launches.ceilDiv(Launches.ceilDiv(k, splits), SLICE) * SLICE;
    }

    /** The number of splits of k in chunks of {@code kChunk}: at least 1 (k = 0 is one empty split). */
    static int splits(int k, int kChunk) {
        return Math.max(1, Launches.ceilDiv(k, kChunk));
    }
}
