package org.gridrun.engine.backend;

/**
 * Batch normalisation over the rows of a {@code rows × channels} matrix on the CPU: the statistics of each column,
 * the normalisation, and its backward pass.
 *
 * <p>A channels-last batch of images seen as {@code (batch·positions) × channels} is exactly that matrix, so one
 * kernel serves fully connected and convolutional layers. Sums run in double precision, over two fixed halves of
 * the rows, one per thread when {@link CpuParallel} splits, added half 0 then half 1: the result is the same
 * whether or not the halves ran in parallel. The instance keeps its per-channel scratch, grown once to the widest
 * layer, so a call allocates nothing.
 */
final class CpuNormKernels {
    /** The fixed number of row blocks whose partial sums are merged. */
    private static final int BLOCKS = 2;

    private double[] sum = new double[0];
    private double[] sumSquares = new double[0];
    private double[] partial = new double[0];
    private double[] partialSquares = new double[0];
    private float[] invStd = new float[0];

    private void reserve(int channels) {
        if (sum.length < channels) {
            sum = new double[channels];
            sumSquares = new double[channels];
            partial = new double[BLOCKS * channels];
            partialSquares = new double[BLOCKS * channels];
        }
    }

    /** A loop body over rows {@code [from, to)} that accumulates into {@code part[offset…]}. */
    private interface BlockSum {
        void run(int from, int to, int offset);
    }

    /**
     * Runs {@code body} on each of the fixed row blocks, then sets {@code total} and {@code totalSquares}, unless
     * null, to the sums of the blocks' {@code partial} and {@code partialSquares}, block 0 first.
     */
    private void blockSums(int rows, int channels, BlockSum body, double[] total, double[] totalSquares) {
        java.util.Arrays.fill(partial, 0, BLOCKS * channels, 0);
        java.util.Arrays.fill(partialSquares, 0, BLOCKS * channels, 0);
        CpuParallel.forEach(BLOCKS, (long) rows * channels, (from, to) -> {
            for (int b = from; b < to; b++) {
                body.run(b * rows / BLOCKS, (b + 1) * rows / BLOCKS, b * channels);
            }
        });
        for (int c = 0; c < channels; c++) {
            double s = 0;
            double squares = 0;
            for (int b = 0; b < BLOCKS; b++) {
                s += partial[b * channels + c];
                squares += partialSquares[b * channels + c];
            }
            if (total != null) {
                total[c] = s;
            }
            if (totalSquares != null) {
                totalSquares[c] = squares;
            }
        }
    }

    /**
     * Normalises {@code x} with its own column statistics: {@code y = gamma·(x − mean)·invStd + beta}. Writes the
     * mean and {@code invStd = 1/sqrt(var + eps)} (biased variance) to {@code mean}/{@code invStd}; when
     * {@code runningMean} is not null, moves the running statistics by {@code momentum} towards the batch's, the
     * running variance towards the unbiased one (PyTorch's convention).
     */
    void forwardTraining(float[] x, int xo, int rows, int channels, float[] gamma, int go, float[] beta, int bo,
                         float eps, float[] mean, int mo, float[] invStd, int io, float[] runningMean, int rmo,
                         float[] runningVar, int rvo, float momentum, float[] y, int yo) {
        reserve(channels);
        blockSums(rows, channels, (from, to, p) -> {
            for (int r = from, base = xo + from * channels; r < to; r++, base += channels) {
                for (int c = 0; c < channels; c++) {
                    partial[p + c] += x[base + c];
                }
            }
        }, sum, null);
        double[] centre = sum;
        for (int c = 0; c < channels; c++) {
            centre[c] /= rows;
        }
        blockSums(rows, channels, (from, to, p) -> {
            for (int r = from, base = xo + from * channels; r < to; r++, base += channels) {
                for (int c = 0; c < channels; c++) {
                    double d = x[base + c] - centre[c];
                    partialSquares[p + c] += d * d;
                }
            }
        }, null, sumSquares);
        for (int c = 0; c < channels; c++) {
            double variance = sumSquares[c] / rows;
            mean[mo + c] = (float) sum[c];
            invStd[io + c] = (float) (1.0 / Math.sqrt(variance + eps));
            if (runningMean != null) {
                double unbiased = rows > 1 ? sumSquares[c] / (rows - 1) : variance;
                runningMean[rmo + c] = (float) ((1 - momentum) * runningMean[rmo + c] + momentum * sum[c]);
                runningVar[rvo + c] = (float) ((1 - momentum) * runningVar[rvo + c] + momentum * unbiased);
            }
        }
        normalize(x, xo, rows, channels, gamma, go, beta, bo, mean, mo, invStd, io, y, yo);
    }

    /** Normalises {@code x} with the running statistics: {@code y = gamma·(x − runningMean)/sqrt(runningVar + eps) + beta}. */
    void forwardInference(float[] x, int xo, int rows, int channels, float[] gamma, int go, float[] beta, int bo,
                          float[] runningMean, int rmo, float[] runningVar, int rvo, float eps, float[] y, int yo) {
        reserve(channels);
        if (invStd.length < channels) {
            invStd = new float[channels];
        }
        for (int c = 0; c < channels; c++) {
            invStd[c] = (float) (1.0 / Math.sqrt(runningVar[rvo + c] + (double) eps));
        }
        normalize(x, xo, rows, channels, gamma, go, beta, bo, runningMean, rmo, invStd, 0, y, yo);
    }

    /** {@code y = gamma·(x − mean)·invStd + beta} column by column; {@code y} may be {@code x}. */
    static void normalize(float[] x, int xo, int rows, int channels, float[] gamma, int go, float[] beta, int bo,
                          float[] mean, int mo, float[] invStd, int io, float[] y, int yo) {
        CpuParallel.forEach(rows, (long) rows * channels, (from, to) -> {
            for (int r = from; r < to; r++) {
                int src = xo + r * channels;
                int dst = yo + r * channels;
                for (int c = 0; c < channels; c++) {
                    y[dst + c] = gamma[go + c] * (x[src + c] - mean[mo + c]) * invStd[io + c] + beta[bo + c];
                }
            }
        });
    }

    /**
     * The backward pass of {@link #forwardTraining}: with {@code xhat = (x − mean)·invStd},
     * {@code dBeta = Σ dy}, {@code dGamma = Σ dy·xhat} (both overwritten) and
     * {@code dx = gamma·invStd/rows · (rows·dy − dBeta − xhat·dGamma)}; {@code dx} may be {@code dy}.
     */
    void backward(float[] x, int xo, float[] dy, int dyo, int rows, int channels, float[] gamma, int go,
                  float[] mean, int mo, float[] invStd, int io, float[] dGamma, int dgo, float[] dBeta, int dbo,
                  float[] dx, int dxo) {
        reserve(channels);
        blockSums(rows, channels, (from, to, p) -> {
            for (int r = from; r < to; r++) {
                int xs = xo + r * channels;
                int ds = dyo + r * channels;
                for (int c = 0; c < channels; c++) {
                    double g = dy[ds + c];
                    partial[p + c] += g;
                    partialSquares[p + c] += g * (x[xs + c] - mean[mo + c]) * invStd[io + c];
                }
            }
        }, sum, sumSquares);
        for (int c = 0; c < channels; c++) {
            dBeta[dbo + c] = (float) sum[c];
            dGamma[dgo + c] = (float) sumSquares[c];
            sum[c] /= rows;
            sumSquares[c] /= rows;
        }
        if (dx == null) {
            return;
        }
        double[] meanDy = sum;
        double[] meanDyXhat = sumSquares;
        CpuParallel.forEach(rows, (long) rows * channels, (from, to) -> {
            for (int r = from; r < to; r++) {
                int xs = xo + r * channels;
                int ds = dyo + r * channels;
                int dd = dxo + r * channels;
                for (int c = 0; c < channels; c++) {
                    float s = invStd[io + c];
                    double xhat = (x[xs + c] - mean[mo + c]) * s;
                    dx[dd + c] = (float) (gamma[go + c] * s * (dy[ds + c] - meanDy[c] - xhat * meanDyXhat[c]));
                }
            }
        });
    }
}
