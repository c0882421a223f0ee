package org.gridrun.engine.backend;

/**
 * The CPU backend's kernels of sequence models: the embedding lookup and its backward pass, and the LSTM cell.
 *
 * <p>The activations are computed in double precision from the float pre-activation, with only {@code exp}
 * ({@code σ(x) = 1/(1 + e^−x)}, {@code tanh(x) = 2σ(2x) − 1}), the function the CUDA kernels may use too, and
 * rounded once to float; the cell's products and sums are float32, in the CUDA kernel's order.
 */
final class CpuRecurrentKernels {
    private CpuRecurrentKernels() {
    }

    /** σ(x) rounded to float. */
    static float sigmoid(float x) {
        return (float) (1.0 / (1.0 + Math.exp(-(double) x)));
    }

    /** tanh(x) rounded to float. */
    static float tanh(float x) {
        return (float) (2.0 / (1.0 + Math.exp(-2.0 * x)) - 1.0);
    }

    /** Copies rows {@code ids[i]} of the table into rows i of {@code out}. */
    static void embedding(float[] table, int to, int vocabulary, float[] ids, int io, float[] out, int oo, int m,
                          int e) {
        for (int i = 0; i < m; i++) {
            System.arraycopy(table, to + row(ids[io + i], vocabulary) * e, out, oo + i * e, e);
        }
    }

    /** Adds rows i of {@code dy} to rows {@code ids[i]} of {@code dTable}, i increasing. */
    static void embeddingBackward(float[] dy, int yo, float[] ids, int io, float[] dTable, int to, int vocabulary,
                                  int m, int e) {
        for (int i = 0; i < m; i++) {
            int base = to + row(ids[io + i], vocabulary) * e;
            for (int j = 0; j < e; j++) {
                dTable[base + j] += dy[yo + i * e + j];
            }
        }
    }

    private static int row(float id, int vocabulary) {
        int r = (int) id;
        if (r != id || r < 0 || r >= vocabulary) {
            throw new IllegalArgumentException("embedding id " + id + " is not a row of a table of " + vocabulary);
        }
        return r;
    }

    /** Rows {@code [from, to)} of {@link Backend#lstmCell}. */
    static void cell(float[] g, int go, float[] cp, int cpo, float[] c, int co, float[] h, int ho, int units,
                     int from, int to) {
        for (int r = from; r < to; r++) {
            int gr = go + 4 * units * r;
            for (int j = 0; j < units; j++) {
                float i = sigmoid(g[gr + j]);
                float f = sigmoid(g[gr + units + j]);
                float z = tanh(g[gr + 2 * units + j]);
                float o = sigmoid(g[gr + 3 * units + j]);
                g[gr + j] = i;
                g[gr + units + j] = f;
                g[gr + 2 * units + j] = z;
                g[gr + 3 * units + j] = o;
                float cell = f * cp[cpo + r * units + j] + i * z;
                c[co + r * units + j] = cell;
                h[ho + r * units + j] = o * tanh(cell);
            }
        }
    }

    /** Rows {@code [from, to)} of {@link Backend#lstmCellBackward}. */
    static void cellBackward(float[] g, int go, float[] cp, int cpo, float[] c, int co, float[] dh, int dho,
                             float[] dc, int dco, float[] dg, int dgo, int units, int from, int to) {
        for (int r = from; r < to; r++) {
            int gr = go + 4 * units * r;
            int dr = dgo + 4 * units * r;
            for (int j = 0; j < units; j++) {
                float i = g[gr + j];
                float f = g[gr + units + j];
                float z = g[gr + 2 * units + j];
                float o = g[gr + 3 * units + j];
                float t = tanh(c[co + r * units + j]);
                float dOut = dh[dho + r * units + j];
                float dCell = dc[dco + r * units + j] + dOut * o * (1f - t * t);
                dg[dr + j] = dCell * z * i * (1f - i);
                dg[dr + units + j] = dCell * cp[cpo + r * units + j] * f * (1f - f);
                dg[dr + 2 * units + j] = dCell * i * (1f - z * z);
                dg[dr + 3 * units + j] = dOut * t * o * (1f - o);
                dc[dco + r * units + j] = dCell * f;
            }
        }
    }
}
