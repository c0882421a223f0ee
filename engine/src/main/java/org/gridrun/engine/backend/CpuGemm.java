package org.gridrun.engine.backend;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.NativeBLAS;

/**
 * Row-major matrix products on netlib BLAS {@code sgemm}, arranged for the implementation netlib loaded.
 *
 * <p>netlib is column-major, and a row-major matrix read column-major is its transpose, so the row-major
 * {@code C = op(A)·op(B)} is the column-major {@code Cᵀ = op(B)ᵀ·op(A)ᵀ}: the operands swap places and each leading
 * dimension is the row-major column count. Native BLAS and the Java Vector API version take every product as is.
 *
 * <p>netlib's plain-Java versions switch, once {@code m·n·k} reaches {@value #JAVA_BLOCKING_THRESHOLD}, to a blocked
 * algorithm that allocates packing buffers on every call and measured about a third slower here for the shapes of
 * minibatch training. For them every product is brought to the row-major {@code A·Bᵀ} form (dot products of rows),
 * transposing an operand into a reusable scratch buffer where needed, and cut into tiles below the threshold. A
 * training step then allocates nothing.
 *
 * <p>A native BLAS running one thread ({@code OPENBLAS_NUM_THREADS=1}, as {@code grid-run} sets it, or the bundled
 * OpenBLAS where it is unset) gets each
 * large product cut in two for the backend's two threads ({@link SplitGemm}); with more BLAS threads, BLAS splits.
 */
final class CpuGemm {
    /** netlib 3.0.3's plain-Java {@code sgemm} blocks (and allocates) from this {@code m·n·k} on. */
    static final long JAVA_BLOCKING_THRESHOLD = 1_000_000;

    private final BLAS blas;
    private final boolean tiled;
    private final SplitGemm split;
    private float[] scratchA = new float[0];
    private float[] scratchB = new float[0];

    CpuGemm(BLAS blas) {
        this(blas, NetlibBlas.singleThreadedNative(blas));
    }

    /** With {@code split}, products of a non-tiled BLAS are cut between the backend's threads. */
    CpuGemm(BLAS blas, boolean split) {
        this.blas = blas;
        String impl = blas.getClass().getSimpleName();
        this.tiled = !(blas instanceof NativeBLAS) && !impl.equals("VectorBLAS");
        this.split = split && !tiled ? new SplitGemm(blas) : null;
    }

    /**
     * {@code C ← alpha·op(A)·op(B) + beta·C} with op(A) m×k, op(B) k×n, C m×n; each operand is given as array,
     * offset and row-major column count (its leading dimension); C's is n.
     */
    void gemm(boolean transA, boolean transB, int m, int n, int k, float alpha, float[] a, int ao, int lda,
              float[] b, int bo, int ldb, float beta, float[] c, int co) {
        if (alpha == 0f || k == 0) {
            // BLAS leaves A and B unread here; OpenBLAS's small-matrix kernels read them anyway (0·NaN = NaN)
            scale(beta, c, co, m * n);
            return;
        }
        if (split != null) {
            split.gemm(transA, transB, m, n, k, alpha, a, ao, lda, b, bo, ldb, beta, c, co);
            return;
        }
        if (!tiled) {
            rowMajor(blas, transA, transB, m, n, k, alpha, a, ao, lda, b, bo, ldb, beta, c, co);
            return;
        }
        if (transA) {
            scratchA = transpose(a, ao, k, m, scratchA);
            a = scratchA;
            ao = 0;
        }
        if (!transB) {
            scratchB = transpose(b, bo, k, n, scratchB);
            b = scratchB;
            bo = 0;
        }
        dotProducts(m, n, k, alpha, a, ao, b, bo, beta, c, co);
    }

    /** {@code C ← beta·C}, with beta 0 writing zeros whatever C held (as BLAS does). */
    private static void scale(float beta, float[] c, int co, int length) {
        if (beta == 0f) {
            java.util.Arrays.fill(c, co, co + length, 0f);
        } else if (beta != 1f) {
            for (int i = co; i < co + length; i++) {
                c[i] *= beta;
            }
        }
    }

    /**
     * One row-major product as one column-major {@code sgemm} call on {@code blas}, with the operands swapped; no
     * tiling, so for native BLAS (and the Vector API one) only.
     */
    static void rowMajor(BLAS blas, boolean transA, boolean transB, int m, int n, int k, float alpha, float[] a,
                         int ao, int lda, float[] b, int bo, int ldb, float beta, float[] c, int co) {
        blas.sgemm(transB ? "T" : "N", transA ? "T" : "N", n, m, k, alpha, b, bo, Math.max(1, ldb), a, ao,
                Math.max(1, lda), beta, c, co, Math.max(1, n));
    }

    /** {@code C ← alpha·A·Bᵀ + beta·C} for row-major A m×k and B n×k, in tiles below the blocking threshold. */
    private void dotProducts(int m, int n, int k, float alpha, float[] a, int ao, float[] b, int bo, float beta,
                             float[] c, int co) {
        int ld = Math.max(1, k);
        long budget = (JAVA_BLOCKING_THRESHOLD - 1) / ld;
        int tileN = (int) Math.max(1, Math.min(n, (long) Math.sqrt(budget)));
        int tileM = (int) Math.max(1, Math.min(m, budget / tileN));
        if (tileM == m) {
            tileN = (int) Math.max(1, Math.min(n, budget / m));
        }
        for (int i = 0; i < m; i += tileM) {
            int rows = Math.min(tileM, m - i);
            for (int j = 0; j < n; j += tileN) {
                int cols = Math.min(tileN, n - j);
                blas.sgemm("T", "N", cols, rows, k, alpha, b, bo + j * k, ld, a, ao + i * k, ld, beta, c,
                        co + i * n + j, Math.max(1, n));
            }
        }
    }

    /** Writes the transpose of the rows × cols matrix at {@code src[offset…]} into {@code dst}, grown if needed. */
    private static float[] transpose(float[] src, int offset, int rows, int cols, float[] dst) {
        if (dst.length < rows * cols) {
            dst = new float[rows * cols];
        }
        for (int i = 0; i < rows; i++) {
            int from = offset + i * cols;
            for (int j = 0; j < cols; j++) {
                dst[j * rows + i] = src[from + j];
            }
        }
        return dst;
    }
}
