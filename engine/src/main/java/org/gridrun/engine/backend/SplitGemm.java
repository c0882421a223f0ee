package org.gridrun.engine.backend;

import dev.ludovic.netlib.blas.BLAS;

/**
 * Row-major {@code sgemm} cut in two halves that run on the CPU backend's two threads, each a single-threaded BLAS
 * call, for a native BLAS told to use one thread ({@code OPENBLAS_NUM_THREADS=1}).
 *
 * <p>OpenBLAS splits the skinny products of convolutions ({@code [131072 × 144]·[144 × 16]} and its adjoints) badly
 * between its own threads, and its threads spin after each call while the backend's loops want the same cores.
 * Here {@code A·op(B)} is cut by the rows of A and C; the weight gradient {@code Aᵀ·B}, whose inner dimension is the
 * batch's rows, is cut along that inner dimension, the second half's product going to a scratch matrix that is then
 * added to the first in a fixed order. Each cut is a whole block of stored rows, because netlib checks that an
 * operand's every column (a row-major row) lies inside its array. Where the cut falls depends only on the shape, so
 * results never depend on thread timing; products below {@link CpuParallel#MIN_WORK} multiply-adds, and
 * {@code Aᵀ·Bᵀ}, which nothing uses, run whole on the calling thread.
 */
final class SplitGemm {
    private final BLAS blas;
    private float[] partial = new float[0];

    SplitGemm(BLAS blas) {
        this.blas = blas;
    }

    /** As {@link CpuGemm#gemm}: {@code C ← alpha·op(A)·op(B) + beta·C}, C row-major m×n. */
    void gemm(boolean transA, boolean transB, int m, int n, int k, float alpha, float[] a, int ao, int lda,
              float[] b, int bo, int ldb, float beta, float[] c, int co) {
        long work = (long) m * n * k;
        if (work < CpuParallel.MIN_WORK || CpuParallel.threads() < 2 || transA && transB) {
            call(transA, transB, m, n, k, alpha, a, ao, lda, b, bo, ldb, beta, c, co);
        } else if (transA && k < 2) {
            // No inner dimension to halve (a batch of one): BLAS rejects the empty half.
            call(true, transB, m, n, k, alpha, a, ao, lda, b, bo, ldb, beta, c, co);
        } else if (transA) {
            splitInner(m, n, k, alpha, a, ao, lda, b, bo, ldb, beta, c, co, work);
        } else {
            CpuParallel.forEach(m, work, (from, to) -> call(false, transB, to - from, n, k, alpha, a,
                    ao + from * lda, lda, b, bo, ldb, beta, c, co + from * n));
        }
    }

    /**
     * {@code C ← alpha·Aᵀ·B + beta·C} with A k×m and B k×n stored: rows {@code [0, k/2)} of both into C, the rest
     * into {@link #partial} on the other thread, then C += partial.
     */
    private void splitInner(int m, int n, int k, float alpha, float[] a, int ao, int lda, float[] b, int bo, int ldb,
                            float beta, float[] c, int co, long work) {
        if (partial.length < m * n) {
            partial = new float[m * n];
        }
        float[] second = partial;
        int half = k / 2;
        CpuParallel.forEach(2, work, (from, to) -> {
            for (int part = from; part < to; part++) {
                if (part == 0) {
                    call(true, false, m, n, half, alpha, a, ao, lda, b, bo, ldb, beta, c, co);
                } else {
                    call(true, false, m, n, k - half, alpha, a, ao + half * lda, lda, b, bo + half * ldb, ldb, 0f,
                            second, 0);
                }
            }
        });
        for (int i = CpuVectors.enabled ? VectorElementwise.add(second, 0, c, co, m * n) : 0; i < m * n; i++) {
            c[co + i] += second[i];
        }
    }

    private void call(boolean transA, boolean transB, int m, int n, int k, float alpha, float[] a, int ao, int lda,
                      float[] b, int bo, int ldb, float beta, float[] c, int co) {
        CpuGemm.rowMajor(blas, transA, transB, m, n, k, alpha, a, ao, lda, b, bo, ldb, beta, c, co);
    }
}
