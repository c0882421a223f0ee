package org.gridrun.engine.compress;

import java.util.Arrays;

/**
 * The matrix products of PowerSGD on a row-major matrix {@code M} ({@code rows × cols}, inside a gradient) and its
 * factors {@code P} ({@code rows × r}) and {@code Q} ({@code cols × r}).
 *
 * <p>A factor is stored as its {@code r} columns one after another, each contiguous ({@code p[k·rows + i]} is
 * {@code P[i][k]}), so that every inner loop runs over contiguous memory: a dot product with a row of {@code M} or a
 * scaled row added to a column. Sums run in a fixed order, so equal inputs give equal bits. Nothing is allocated.
 */
final class LowRank {
    private LowRank() {
    }

    /**
     * {@code P = M·Q}: {@code p[k·rows + i]} is row {@code i} of {@code M} dotted with column {@code k} of Q, each dot
     * one chain of float additions in column order. Four rows go at once, four independent chains, so that each waits
     * a quarter as long for the addition before it; each chain's order is the same.
     */
    static void times(float[] m, int mo, int rows, int cols, float[] q, int qo, int r, float[] p) {
        int i = 0;
        for (; i + 4 <= rows; i += 4) {
            int row0 = mo + i * cols;
            int row1 = row0 + cols;
            int row2 = row1 + cols;
            int row3 = row2 + cols;
            for (int k = 0; k < r; k++) {
                int column = qo + k * cols;
                float s0 = 0f;
                float s1 = 0f;
                float s2 = 0f;
                float s3 = 0f;
                for (int j = 0; j < cols; j++) {
                    float x = q[column + j];
                    s0 += m[row0 + j] * x;
                    s1 += m[row1 + j] * x;
                    s2 += m[row2 + j] * x;
                    s3 += m[row3 + j] * x;
                }
                int at = k * rows + i;
                p[at] = s0;
                p[at + 1] = s1;
                p[at + 2] = s2;
                p[at + 3] = s3;
            }
        }
        for (; i < rows; i++) {
            int row = mo + i * cols;
            for (int k = 0; k < r; k++) {
                p[k * rows + i] = dot(m, row, q, qo + k * cols, cols);
            }
        }
    }

    /** {@code Q = Mᵀ·P}, as the sum over rows {@code i} of row {@code i} of M scaled by {@code P[i][k]}. */
    static void transposeTimes(float[] m, int mo, int rows, int cols, float[] p, int r, float[] q, int qo) {
        Arrays.fill(q, qo, qo + r * cols, 0f);
        for (int i = 0; i < rows; i++) {
            int row = mo + i * cols;
            for (int k = 0; k < r; k++) {
                float s = p[k * rows + i];
                int column = qo + k * cols;
                for (int j = 0; j < cols; j++) {
                    q[column + j] += s * m[row + j];
                }
            }
        }
    }

    /** Row {@code i} of {@code P·Qᵀ} into {@code out[0 … cols)}. */
    static void productRow(float[] p, int po, int rows, int i, float[] q, int qo, int cols, int r, float[] out) {
        Arrays.fill(out, 0, cols, 0f);
        for (int k = 0; k < r; k++) {
            float s = p[po + k * rows + i];
            int column = qo + k * cols;
            for (int j = 0; j < cols; j++) {
                out[j] += s * q[column + j];
            }
        }
    }

    private static float dot(float[] a, int ao, float[] b, int bo, int n) {
        float sum = 0f;
        for (int j = 0; j < n; j++) {
            sum += a[ao + j] * b[bo + j];
        }
        return sum;
    }
}
