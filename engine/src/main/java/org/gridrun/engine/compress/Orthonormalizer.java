package org.gridrun.engine.compress;

import java.util.Arrays;

/**
 * Replaces the {@code r} columns of a factor {@code P} ({@code rows × r}, columns contiguous as in {@link LowRank})
 * by an orthonormal basis of their span: Gram-Schmidt for {@code r ≤ 2}, Householder QR above, as PowerSGD does.
 *
 * <p>Gram-Schmidt projects each column against the earlier ones twice (once more than textbook), so that a column
 * that was nearly dependent, left with only rounding noise, still comes out orthogonal to the others; a column that
 * is exactly zero stays zero. Householder keeps its reflectors in double precision and multiplies them out into the
 * first {@code r} columns of the identity, which is orthonormal whatever the rank of {@code P}. Sums are accumulated
 * in double, in {@link ChainSums}' order of chains, so that a GPU block can follow them. The workspace grows to the largest factor seen and is then reused: nothing is allocated per call.
 */
final class Orthonormalizer {
    /** The largest rank orthonormalised by Gram-Schmidt. */
    static final int GRAM_SCHMIDT_MAX_RANK = 2;

    private double[] reflectors = new double[0];
    private double[] basis = new double[0];
    private double[] beta = new double[0];

    /** Orthonormalises the {@code r} columns of {@code p}, each {@code rows} long ({@code rows ≥ r}). */
    void apply(float[] p, int rows, int r) {
        if (r <= GRAM_SCHMIDT_MAX_RANK) {
            gramSchmidt(p, rows, r);
        } else {
            householder(p, rows, r);
        }
    }

    /** Two-pass classical Gram-Schmidt, column by column. */
    static void gramSchmidt(float[] p, int rows, int r) {
        for (int k = 0; k < r; k++) {
            int column = k * rows;
            for (int pass = 0; pass < 2; pass++) {
                for (int j = 0; j < k; j++) {
                    float c = (float) dot(p, j * rows, p, column, rows);
                    for (int i = 0; i < rows; i++) {
                        p[column + i] -= c * p[j * rows + i];
                    }
                }
            }
            double norm = Math.sqrt(dot(p, column, p, column, rows));
            if (norm > 0) {
                float inverse = (float) (1 / norm);
                for (int i = 0; i < rows; i++) {
                    p[column + i] *= inverse;
                }
            }
        }
    }

    /** The thin Q of a Householder QR of {@code p}, written over {@code p}. */
    void householder(float[] p, int rows, int r) {
        int size = rows * r;
        if (reflectors.length < size || beta.length < r) {
            reflectors = new double[size];
            basis = new double[size];
            beta = new double[r];
        }
        for (int i = 0; i < size; i++) {
            reflectors[i] = p[i];
        }
        for (int k = 0; k < r; k++) {
            beta[k] = reflect(rows, k);
            for (int c = k + 1; c < r; c++) {
                applyReflector(reflectors, k, rows, beta[k], reflectors, c);
            }
        }
        Arrays.fill(basis, 0, size, 0.0);
        for (int c = 0; c < r; c++) {
            basis[c * rows + c] = 1;
        }
        for (int k = r - 1; k >= 0; k--) {
            for (int c = k; c < r; c++) {
                applyReflector(reflectors, k, rows, beta[k], basis, c);
            }
        }
        for (int i = 0; i < size; i++) {
            p[i] = (float) basis[i];
        }
    }

    /**
     * Turns rows {@code k…} of column {@code k} into the reflector {@code v = x − α·e_k} that maps {@code x} onto
     * {@code α·e_k}; returns {@code 2/(vᵀv)}, or 0 (no reflection) for a zero column.
     */
    private double reflect(int rows, int k) {
        int column = k * rows;
        double norm = Math.sqrt(dot(reflectors, column + k, reflectors, column + k, rows - k));
        if (norm == 0) {
            return 0;
        }
        reflectors[column + k] -= reflectors[column + k] > 0 ? -norm : norm;
        return 2 / dot(reflectors, column + k, reflectors, column + k, rows - k);
    }

    /** {@code x ← x − β·v·(vᵀx)} on rows {@code k…} of column {@code c} of {@code x}, {@code v} column k of {@code v}. */
    private static void applyReflector(double[] v, int k, int rows, double beta, double[] x, int c) {
        if (beta == 0) {
            return;
        }
        int vo = k * rows + k;
        int xo = c * rows + k;
        double s = beta * dot(v, vo, x, xo, rows - k);
        for (int i = 0; i < rows - k; i++) {
            x[xo + i] -= s * v[vo + i];
        }
    }

    /**
     * {@code aᵀb} in double in {@link ChainSums}' order of chains (product {@code i} to chain {@code i mod 128}, the
     * tree), which the GPU's block of threads follows ({@code lowrank.cu}).
     */
    private static double dot(float[] a, int ao, float[] b, int bo, int n) {
        double[] chains = ChainSums.zeroedChains();
        for (int i = 0; i < n; i++) {
            chains[i & (ChainSums.CHAINS - 1)] += (double) a[ao + i] * b[bo + i];
        }
        return ChainSums.tree(chains);
    }

    private static double dot(double[] a, int ao, double[] b, int bo, int n) {
        double[] chains = ChainSums.zeroedChains();
        for (int i = 0; i < n; i++) {
            chains[i & (ChainSums.CHAINS - 1)] += a[ao + i] * b[bo + i];
        }
        return ChainSums.tree(chains);
    }
}
