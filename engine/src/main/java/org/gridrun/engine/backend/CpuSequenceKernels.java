package org.gridrun.engine.backend;

/**
 * The CPU loops of the transformer's operations: layer norm, GELU, row softmax and the axis swap that splits tokens
 * into attention heads.
 *
 * <p>Each works on rows {@code [from, to)} so that {@link CpuParallel} can split a call between two threads by row;
 * a row's sums run in double, in one fixed order, so results never depend on the split. Layer norm's parameter
 * gradients, sums over rows, are the one exception to row splitting: they run in row order on one thread.
 */
final class CpuSequenceKernels {
    private CpuSequenceKernels() {
    }

    static void layerNorm(float[] x, int xo, int from, int to, int n, float[] gamma, int go, float[] beta, int bo,
                          float eps, float[] mean, int mo, float[] invStd, int io, float[] y, int yo) {
        for (int r = from; r < to; r++) {
            int base = r * n;
            double sum = 0;
            for (int j = 0; j < n; j++) {
                sum += x[xo + base + j];
            }
            float mu = (float) (sum / n);
            double squares = 0;
            for (int j = 0; j < n; j++) {
                double d = x[xo + base + j] - mu;
                squares += d * d;
            }
            float inv = (float) (1 / Math.sqrt(squares / n + eps));
            mean[mo + r] = mu;
            invStd[io + r] = inv;
            for (int j = 0; j < n; j++) {
                y[yo + base + j] = gamma[go + j] * ((x[xo + base + j] - mu) * inv) + beta[bo + j];
            }
        }
    }

    /** The input gradient of rows [from, to) of a layer norm: {@code invStd·(g − mean(g) − x̂·mean(g·x̂))}. */
    static void layerNormInputGradient(float[] x, int xo, float[] dy, int dyo, int from, int to, int n,
                                       float[] gamma, int go, float[] mean, int mo, float[] invStd, int io,
                                       float[] dx, int dxo) {
        for (int r = from; r < to; r++) {
            int base = r * n;
            float mu = mean[mo + r];
            float inv = invStd[io + r];
            double sumG = 0;
            double sumGx = 0;
            for (int j = 0; j < n; j++) {
                double g = dy[dyo + base + j] * gamma[go + j];
                sumG += g;
                sumGx += g * ((x[xo + base + j] - mu) * inv);
            }
            float meanG = (float) (sumG / n);
            float meanGx = (float) (sumGx / n);
            for (int j = 0; j < n; j++) {
                float xhat = (x[xo + base + j] - mu) * inv;
                dx[dxo + base + j] = inv * (dy[dyo + base + j] * gamma[go + j] - meanG - xhat * meanGx);
            }
        }
    }

    /** The gradients of a layer norm's scale and shift: column sums over all rows, in row order. */
    static void layerNormParameterGradients(float[] x, int xo, float[] dy, int dyo, int rows, int n, float[] mean,
                                            int mo, float[] invStd, int io, float[] dGamma, int dgo, float[] dBeta,
                                            int dbo) {
        double[] sumGamma = new double[n];
        double[] sumBeta = new double[n];
        for (int r = 0; r < rows; r++) {
            int base = r * n;
            float mu = mean[mo + r];
            float inv = invStd[io + r];
            for (int j = 0; j < n; j++) {
                float g = dy[dyo + base + j];
                sumGamma[j] += g * ((x[xo + base + j] - mu) * inv);
                sumBeta[j] += g;
            }
        }
        for (int j = 0; j < n; j++) {
            dGamma[dgo + j] = (float) sumGamma[j];
            dBeta[dbo + j] = (float) sumBeta[j];
        }
    }

    static void gelu(float[] x, int xo, int from, int to, float[] y, int yo) {
        for (int i = from; i < to; i++) {
            double v = x[xo + i];
            y[yo + i] = (float) (v * Erf.normalCdf(v));
        }
    }

    static void geluBackward(float[] x, int xo, float[] dy, int dyo, int from, int to, float[] dx, int dxo) {
        for (int i = from; i < to; i++) {
            double v = x[xo + i];
            double slope = Erf.normalCdf(v) + v * Math.exp(-0.5 * v * v) * Erf.INV_SQRT_2PI;
            dx[dxo + i] = (float) (dy[dyo + i] * slope);
        }
    }

    static void softmax(float[] x, int xo, int from, int to, int n, float[] y, int yo) {
        for (int r = from; r < to; r++) {
            int base = r * n;
            float max = Float.NEGATIVE_INFINITY;
            for (int j = 0; j < n; j++) {
                max = Math.max(max, x[xo + base + j]);
            }
            double sum = 0;
            for (int j = 0; j < n; j++) {
                float e = (float) Math.exp(x[xo + base + j] - max);
                y[yo + base + j] = e;
                sum += e;
            }
            float inv = (float) (1 / sum);
            for (int j = 0; j < n; j++) {
                y[yo + base + j] *= inv;
            }
        }
    }

    static void softmaxBackward(float[] y, int yo, float[] dy, int dyo, int from, int to, int n, float[] dx,
                                int dxo) {
        for (int r = from; r < to; r++) {
            int base = r * n;
            double dot = 0;
            for (int j = 0; j < n; j++) {
                dot += (double) dy[dyo + base + j] * y[yo + base + j];
            }
            float d = (float) dot;
            for (int j = 0; j < n; j++) {
                dx[dxo + base + j] = y[yo + base + j] * (dy[dyo + base + j] - d);
            }
        }
    }

    /** Rows {@code [from, to)} of {@code outer·a} of the swap {@code [outer][a][b][inner] → [outer][b][a][inner]}. */
    static void swapAxes(float[] x, int xo, int from, int to, int a, int b, int inner, float[] y, int yo) {
        for (int row = from; row < to; row++) {
            int o = row / a;
            int i = row % a;
            for (int j = 0; j < b; j++) {
                System.arraycopy(x, xo + ((row * b) + j) * inner, y, yo + ((o * b + j) * a + i) * inner, inner);
            }
        }
    }
}
