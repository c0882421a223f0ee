package org.gridrun.engine.backend;

/**
 * Batch normalisation over the rows of a {@code rows × channels} matrix on the CPU: the statistics of each column,
 * the normalisation, and its backward pass.
 *
 * <p>A channels-last batch of images seen as {@code (batch·positions) × channels} is exactly that matrix, so one
 * kernel serves fully connected and convolutional layers. Sums run in float over short runs of rows (on vectors of
 * channels where the Vector API runs, see {@link VectorNormRows}) and in double across runs, over two fixed halves
 * of the rows, one per thread when {@link CpuParallel} splits, added half 0 then half 1: the result is the same
 * whether or not the halves ran in parallel. The elementwise passes use per-channel float coefficients computed once
 * per call. The instance keeps its per-channel scratch, grown once to the widest layer, so a call allocates
 * nothing.
 */
final class CpuNormKernels {
    // engine/src/main/cuda/norm.cu sums the batch mean over the same runs and blocks, so that the CUDA backend's mean
    // is this one's to the bit: change BLOCKS or RUN there too.

    /** The fixed number of row blocks whose partial sums are merged. */
    private static final int BLOCKS = 2;
    /** Rows summed in float before the run's sums are added to the double totals. */
    private static final int RUN = 32;

    private double[] sum = new double[0];
    private double[] sumSquares = new double[0];
    private double[] partial = new double[0];
    private double[] partialSquares = new double[0];
    private float[] runSums = new float[0];
    private float[] runSquares = new float[0];
    private float[] runningInvStd = new float[0];
    private float[] centre = new float[0];
    private float[] scale = new float[0];
    private float[] shift = new float[0];
    private float[] constant = new float[0];

    private void reserve(int channels) {
        if (sum.length < channels) {
            sum = new double[channels];
            sumSquares = new double[channels];
            partial = new double[BLOCKS * channels];
            partialSquares = new double[BLOCKS * channels];
            runSums = new float[BLOCKS * channels];
            runSquares = new float[BLOCKS * channels];
            runningInvStd = new float[channels];
            constant = new float[channels];
            centre = new float[channels];
            scale = new float[channels];
            shift = new float[channels];
        }
    }

    /**
     * Float sums of one run of rows into {@code runSums[offset…]} and {@code runSquares[offset…]}, both zero on
     * entry.
     */
    private interface RunSum {
        void run(int from, int to, int offset);
    }

    /**
     * {@link VectorNormRows}' part of a block's sums: channels {@code [0, first)} of rows {@code [from, to)} added to
     * the block's {@code partial}/{@code partialSquares} at {@code offset}, run by run.
     */
    private interface VectorPart {
        void run(int from, int to, int offset);
    }

    /**
     * Sums each of the fixed row blocks run by run ({@link #RUN} rows summed in float, each run's sums then added
     * to the block's double {@code partial}/{@code partialSquares}): channels below {@code first} by {@code vector},
     * the others by {@code body} a run at a time. Then sets {@code sum} and {@code sumSquares} to the sums of the
     * blocks, block 0 first: the order depends only on the shape, never on the threads.
     */
    private void blockSums(int rows, int channels, int first, VectorPart vector, RunSum body) {
        CpuParallel.forEach(BLOCKS, (long) rows * channels, (from, to) -> {
            for (int b = from; b < to; b++) {
                int p = b * channels;
                java.util.Arrays.fill(partial, p, p + channels, 0);
                java.util.Arrays.fill(partialSquares, p, p + channels, 0);
                int start = b * rows / BLOCKS;
                int end = (b + 1) * rows / BLOCKS;
                if (first > 0) {
                    vector.run(start, end, p);
                }
                for (int r = start; first < channels && r < end; r += RUN) {
                    java.util.Arrays.fill(runSums, p + first, p + channels, 0f);
                    java.util.Arrays.fill(runSquares, p + first, p + channels, 0f);
                    body.run(r, Math.min(end, r + RUN), p);
                    for (int c = first; c < channels; c++) {
                        partial[p + c] += runSums[p + c];
                        partialSquares[p + c] += runSquares[p + c];
                    }
                }
            }
        });
        for (int c = 0; c < channels; c++) {
            double s = 0;
            double squares = 0;
            for (int b = 0; b < BLOCKS; b++) {
                s += partial[b * channels + c];
                squares += partialSquares[b * channels + c];
            }
            sum[c] = s;
            sumSquares[c] = squares;
        }
    }

    /**
     * Normalises {@code x} with its own column statistics: {@code y = gamma·(x − mean)·invStd + beta}. Writes the
     * mean and {@code invStd = 1/sqrt(var + eps)} (biased variance) to {@code mean}/{@code invStd}; when
     * {@code runningMean} is not null, moves the running statistics by {@code momentum} towards the batch's, the
     * running variance towards the unbiased one (PyTorch's convention). With {@code relu}, {@code y} is
     * {@code max(·, 0)} of that, in the same pass.
     *
     * <p>Two passes over {@code x}: the sums, then the squares of the deviations from the mean, each in float over
     * runs of {@link #RUN} rows and in double across runs.
     */
    void forwardTraining(float[] x, int xo, int rows, int channels, float[] gamma, int go, float[] beta, int bo,
                         float eps, float[] mean, int mo, float[] invStd, int io, float[] runningMean, int rmo,
                         float[] runningVar, int rvo, float momentum, float[] y, int yo, boolean relu) {
        reserve(channels);
        int first = vectorChannels(channels);
        blockSums(rows, channels, first, (from, to, p) -> VectorNormRows.sums(x, xo, from, to, channels, RUN,
                partial, p), (from, to, p) -> {
            for (int r = from, base = xo + from * channels; r < to; r++, base += channels) {
                for (int c = first; c < channels; c++) {
                    runSums[p + c] += x[base + c];
                }
            }
        });
        for (int c = 0; c < channels; c++) {
            centre[c] = (float) (sum[c] / rows);
        }
        float[] m = centre;
        blockSums(rows, channels, first, (from, to, p) -> VectorNormRows.squares(x, xo, from, to, channels, RUN, m,
                partialSquares, p), (from, to, p) -> {
            for (int r = from, base = xo + from * channels; r < to; r++, base += channels) {
                for (int c = first; c < channels; c++) {
                    float d = x[base + c] - m[c];
                    runSquares[p + c] += d * d;
                }
            }
        });
        for (int c = 0; c < channels; c++) {
            double variance = sumSquares[c] / rows;
            mean[mo + c] = m[c];
            invStd[io + c] = (float) (1.0 / Math.sqrt(variance + eps));
            if (runningMean != null) {
                double unbiased = rows > 1 ? sumSquares[c] / (rows - 1) : variance;
                runningMean[rmo + c] = (float) ((1 - momentum) * runningMean[rmo + c] + momentum * m[c]);
                runningVar[rvo + c] = (float) ((1 - momentum) * runningVar[rvo + c] + momentum * unbiased);
            }
        }
        normalize(x, xo, rows, channels, gamma, go, beta, bo, mean, mo, invStd, io, y, yo, relu);
    }

    /**
     * Normalises {@code x} with the running statistics:
     * {@code y = gamma·(x − runningMean)/sqrt(runningVar + eps) + beta}.
     */
    void forwardInference(float[] x, int xo, int rows, int channels, float[] gamma, int go, float[] beta, int bo,
                          float[] runningMean, int rmo, float[] runningVar, int rvo, float eps, float[] y, int yo) {
        reserve(channels);
        for (int c = 0; c < channels; c++) {
            runningInvStd[c] = (float) (1.0 / Math.sqrt(runningVar[rvo + c] + (double) eps));
        }
        normalize(x, xo, rows, channels, gamma, go, beta, bo, runningMean, rmo, runningInvStd, 0, y, yo,
                false);
    }

    /**
     * {@code y = (x − mean)·scale + beta} column by column with {@code scale = gamma·invStd}, then {@code max(y, 0)}
     * with {@code relu}; {@code y} may be {@code x}. The channel vectors are copied to offset 0 first, so the row
     * loop indexes them like {@code x}.
     */
    private void normalize(float[] x, int xo, int rows, int channels, float[] gamma, int go, float[] beta, int bo,
                           float[] mean, int mo, float[] invStd, int io, float[] y, int yo, boolean relu) {
        float[] m = centre;
        float[] k = scale;
        float[] b = shift;
        for (int c = 0; c < channels; c++) {
            m[c] = mean[mo + c];
            k[c] = gamma[go + c] * invStd[io + c];
            b[c] = beta[bo + c];
        }
        int first = vectorChannels(channels);
        CpuParallel.forEach(rows, (long) rows * channels, (from, to) -> {
            if (first > 0) {
                VectorNormRows.normalize(x, xo, y, yo, from, to, channels, m, k, b, relu);
            }
            for (int r = from; r < to; r++) {
                int src = xo + r * channels;
                int dst = yo + r * channels;
                if (relu) {
                    for (int c = first; c < channels; c++) {
                        y[dst + c] = Math.max((x[src + c] - m[c]) * k[c] + b[c], 0f);
                    }
                } else {
                    for (int c = first; c < channels; c++) {
                        y[dst + c] = (x[src + c] - m[c]) * k[c] + b[c];
                    }
                }
            }
        });
    }

    /**
     * The channels {@link VectorNormRows} takes, {@code [0, first)}: whole vectors of them where the Vector API runs,
     * none where it does not; the scalar loops take the rest.
     */
    private static int vectorChannels(int channels) {
        return CpuVectors.enabled ? VectorNormRows.bound(channels) : 0;
    }

    /** Whether {@link #backward} masks by a ReLU's output as it sums: on vectors, for whole vectors of channels. */
    static boolean masksAsItSums(int channels) {
        return vectorChannels(channels) == channels;
    }

    /**
     * The backward pass of {@link #forwardTraining}: with {@code xhat = (x − mean)·invStd},
     * {@code dBeta = Σ dy}, {@code dGamma = Σ dy·xhat} (both overwritten) and
     * {@code dx = gamma·invStd/rows · (rows·dy − dBeta − xhat·dGamma)}; {@code dx} may be {@code dy}.
     *
     * <p>The second pass computes {@code dx = k·dy + kx·(x − mean) + k0} with per-channel float coefficients.
     *
     * <p>With {@code y} (the output of the ReLU after the batch norm, {@link #masksAsItSums}), {@code dy} is first
     * masked where {@code y} is not positive, in the first pass, which writes it back: the ReLU's backward pass and
     * this one, to the same bits, one pass over the data fewer.
     */
    void backward(float[] x, int xo, float[] y, int yo, float[] dy, int dyo, int rows, int channels, float[] gamma,
                  int go, float[] mean, int mo, float[] invStd, int io, float[] dGamma, int dgo, float[] dBeta,
                  int dbo, float[] dx, int dxo) {
        if (y != null && !masksAsItSums(channels)) {
            throw new IllegalArgumentException("no fused ReLU mask for " + channels + " channels here");
        }
        reserve(channels);
        float[] m = centre;
        for (int c = 0; c < channels; c++) {
            m[c] = mean[mo + c];
        }
        int first = vectorChannels(channels);
        blockSums(rows, channels, first, (from, to, p) -> VectorNormRows.gradientSums(x, xo, y, yo, dy, dyo, from,
                to, channels, RUN, m, partial, partialSquares, p), (from, to, p) -> {
            for (int r = from; r < to; r++) {
                int xs = xo + r * channels;
                int ds = dyo + r * channels;
                for (int c = first; c < channels; c++) {
                    float g = dy[ds + c];
                    runSums[p + c] += g;
                    runSquares[p + c] += g * (x[xs + c] - m[c]);
                }
            }
        });
        float[] k = scale;
        float[] kx = shift;
        float[] k0 = constant;
        for (int c = 0; c < channels; c++) {
            double s = invStd[io + c];
            double dyXhat = sumSquares[c] * s;
            dBeta[dbo + c] = (float) sum[c];
            dGamma[dgo + c] = (float) dyXhat;
            double gain = gamma[go + c] * s;
            k[c] = (float) gain;
            kx[c] = (float) (-gain * s * dyXhat / rows);
            k0[c] = (float) (-gain * sum[c] / rows);
        }
        if (dx == null) {
            return;
        }
        CpuParallel.forEach(rows, (long) rows * channels, (from, to) -> {
            if (first > 0) {
                VectorNormRows.gradient(x, xo, dy, dyo, dx, dxo, from, to, channels, m, k, kx, k0);
            }
            for (int r = from; r < to; r++) {
                int xs = xo + r * channels;
                int ds = dyo + r * channels;
                int dd = dxo + r * channels;
                for (int c = first; c < channels; c++) {
                    dx[dd + c] = k[c] * dy[ds + c] + kx[c] * (x[xs + c] - m[c]) + k0[c];
                }
            }
        });
    }
}
