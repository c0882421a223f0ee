// Batch normalisation over the rows of a rows × channels matrix (CudaReductions): a channels-last batch of images
// seen as (batch·positions) × channels, e.g. 131072 × 16…64, or the activations of a fully connected layer.
//
// The statistics are a two-stage reduction with an order fixed by the shape, so they are the same bits every run
// (no atomics):
//   1. gr_bn_partials: block (blockIdx.x, blockIdx.y) takes 32 channels (one warp across a row, coalesced) × one
//      chunk of runs of 32 rows (the launcher sizes the chunks from the shape so that the grid fills the GPU) and
//      writes its double sums per channel to scratch;
//   2. one warp per channel adds the chunks (lane l takes chunks l, l+32, …, then lane 0 the 32 lane sums in order)
//      and turns the totals into the per-channel results;
//   3. one element-wise pass over the matrix with per-channel float coefficients.
// The forward pass reads x once for its statistics: the variance comes from Σa and Σa² with a = x − K, K the
// channel's value in row 0, in double, which avoids the cancellation of Σx² − (Σx)²/n when the mean is large
// against the spread (1000 + N(0,1)): K lies within a few standard deviations of the mean. The mean itself is the
// sum of the CPU's float run sums (see gr_bn_partials), so both backends round it alike.
#include "gridrun.cuh"

// Channels per tile of gr_bn_partials (one warp across a row, coalesced) and rows in flight per tile.
#define GR_BN_COLS 32
#define GR_BN_ROWS 8
// Channels (warps) per block of the per-channel kernels.
#define GR_BN_WARPS 8
// Rows per run of the forward sums, as CpuNormKernels.RUN.
#define GR_BN_RUN 32

// The CPU's runs (CpuNormKernels): the rows split into two halves at rows/2, each cut into runs of 32 rows from its
// start. Run k covers rows [*from, *to).
__device__ __forceinline__ void gr_bn_run(int rows, int k, long long* from, long long* to) {
    int half = rows / 2;
    int runs0 = (half + GR_BN_RUN - 1) / GR_BN_RUN;
    long long f = k < runs0 ? (long long) k * GR_BN_RUN : half + (long long) (k - runs0) * GR_BN_RUN;
    long long end = k < runs0 ? half : rows;
    *from = f;
    *to = f + GR_BN_RUN < end ? f + GR_BN_RUN : end;
}

// Stage 1, over the runs [blockIdx.y·runsPerChunk, …+runsPerChunk) of 32 channels; thread (tx, ty) of the 32 × 8
// block takes runs ty, ty+8, … of the chunk, a run's rows in order; the 8 threads' sums of a channel are then added
// in ty order and written to partials[(j·chunks + blockIdx.y)·channels + c] for sum j = 0, 1, 2.
// Forward (dy null): sum 0 = Σ over runs of the run's float sum of x, added in float in row order as the CPU does,
// so that the mean rounds as the CPU's (for 1000 + N(0,1) a mean one float step away moves every output by 6e-5);
// sums 1 and 2 = Σ a and Σ a² with a = x − x[row 0] in double, for the variance.
// Backward: sums 0 and 1 = Σ dy and Σ dy·(x − mean) in double (sum 2 unused).
extern "C" __global__ void gr_bn_partials(const float* x, const float* dy, const float* mean, int rows,
                                          int channels, int runsPerChunk, double* partials) {
    __shared__ double sums[3][GR_BN_ROWS][GR_BN_COLS];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int c = blockIdx.x * GR_BN_COLS + tx;
    int half = rows / 2;
    int runs = (half + GR_BN_RUN - 1) / GR_BN_RUN + (rows - half + GR_BN_RUN - 1) / GR_BN_RUN;
    long long firstRun = (long long) blockIdx.y * runsPerChunk;
    long long lastRun = firstRun + runsPerChunk < runs ? firstRun + runsPerChunk : runs;
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    if (c < channels) {
        if (dy == 0) {
            double shift = (double) x[c];
            for (long long k = firstRun + ty; k < lastRun; k += GR_BN_ROWS) {
                long long from;
                long long to;
                gr_bn_run(rows, (int) k, &from, &to);
                float run = 0.0f;
#pragma unroll 4
                for (long long r = from; r < to; r++) {
                    float v = x[r * channels + c];
                    run += v;
                    double a = (double) v - shift;
                    s1 += a;
                    s2 += a * a;
                }
                s0 += (double) run;
            }
        } else {
            double m = (double) mean[c];
            for (long long k = firstRun + ty; k < lastRun; k += GR_BN_ROWS) {
                long long from;
                long long to;
                gr_bn_run(rows, (int) k, &from, &to);
#pragma unroll 4
                for (long long r = from; r < to; r++) {
                    long long i = r * channels + c;
                    double g = (double) dy[i];
                    s0 += g;
                    s1 += g * ((double) x[i] - m);
                }
            }
        }
    }
    sums[0][ty][tx] = s0;
    sums[1][ty][tx] = s1;
    sums[2][ty][tx] = s2;
    __syncthreads();
    if (ty == 0 && c < channels) {
        int chunks = gridDim.y;
        for (int j = 0; j < 3; j++) {
            double t = sums[j][0][tx];
            for (int k = 1; k < GR_BN_ROWS; k++) {
                t += sums[j][k][tx];
            }
            partials[((long long) j * chunks + blockIdx.y) * channels + c] = t;
        }
    }
}

// Stage 2's sums: every thread of a warp calls this with the same c; lane 0 gets in t[j] the total of sum j < count
// of channel c over the chunks (the other lanes get their own partial sums). lanes is the kernel's shared array.
// Contains a barrier: every thread of the block calls it.
__device__ __forceinline__ void gr_bn_totals(const double* partials, int chunks, int channels, int c, int count,
                                             double (*lanes)[GR_BN_WARPS][32], double* t) {
    int warp = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    for (int j = 0; j < count; j++) {
        double s = 0;
        if (c < channels) {
            for (int k = lane; k < chunks; k += 32) {
                s += partials[((long long) j * chunks + k) * channels + c];
            }
        }
        lanes[j][warp][lane] = s;
        t[j] = s;
    }
    __syncthreads();
    if (lane == 0) {
        for (int j = 0; j < count; j++) {
            double s = t[j];
            for (int l = 1; l < 32; l++) {
                s += lanes[j][warp][l];
            }
            t[j] = s;
        }
    }
}

// Stage 2 of the forward pass, one warp per channel (8 per block of 256): mean = (float) (Σx/n) as the CPU rounds
// it, the biased variance Σa²/n − (Σa/n)² and invStd = 1/sqrt(var + eps) in double, and scale[c] = gamma·invStd
// (float, as the CPU) for gr_bn_normalize. With runningMean not null, the running statistics move by momentum
// towards the mean and the unbiased variance, in the CPU's mix of float and double.
extern "C" __global__ void gr_bn_stats(const double* partials, int chunks, int rows, int channels,
                                       const float* gamma, float eps, float* mean, float* invStd,
                                       float* runningMean, float* runningVar, float momentum, float* scale) {
    __shared__ double lanes[3][GR_BN_WARPS][32];
    int c = blockIdx.x * GR_BN_WARPS + (threadIdx.x >> 5);
    double t[3];
    gr_bn_totals(partials, chunks, channels, c, 3, lanes, t);
    if ((threadIdx.x & 31) != 0 || c >= channels) {
        return;
    }
    double n = (double) rows;
    double m2 = t[2] - t[1] * (t[1] / n);
    if (m2 < 0) {
        m2 = 0;
    }
    double variance = m2 / n;
    float m = (float) (t[0] / n);
    float is = (float) (1.0 / sqrt(variance + (double) eps));
    mean[c] = m;
    invStd[c] = is;
    scale[c] = gamma[c] * is;
    if (runningMean != 0) {
        double unbiased = rows > 1 ? m2 / (n - 1.0) : variance;
        float keep = 1.0f - momentum;
        runningMean[c] = __fadd_rn(__fmul_rn(keep, runningMean[c]), __fmul_rn(momentum, m));
        runningVar[c] = (float) ((double) __fmul_rn(keep, runningVar[c]) + (double) momentum * unbiased);
    }
}

// The inference coefficients: scale[c] = gamma·(float) (1/sqrt(runningVar + eps)), the latter in double as on the
// CPU. One thread per channel.
extern "C" __global__ void gr_bn_inference_scale(const float* gamma, const float* runningVar, float eps,
                                                 int channels, float* scale) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < channels) {
        float is = (float) (1.0 / sqrt((double) runningVar[c] + (double) eps));
        scale[c] = gamma[c] * is;
    }
}

// The element-wise pass of both directions: y = (x − centre[c])·scale[c] + shift[c] for every element of x
// (rows × channels), and when g is not null y = gScale[c]·g + (x − centre[c])·scale[c] + shift[c] (the backward
// pass's dx = k·dy + kx·(x − mean) + k0), each product and sum rounded on its own in the CPU's order (no FMA
// contraction), so that with the same coefficients the outputs are the CPU's bits. y may be x or g: each element is read before it
// is written by the same thread. A grid-stride loop over the n = rows·channels < 2^31 elements: each thread keeps
// its channel and steps it by stride mod channels, so there is no division per element.
extern "C" __global__ void gr_bn_normalize(const float* x, const float* g, int rows, int channels,
                                           const float* centre, const float* scale, const float* gScale,
                                           const float* shift, float* y) {
    unsigned n = (unsigned) rows * (unsigned) channels;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned stride = blockDim.x * gridDim.x;
    unsigned ch = (unsigned) channels;
    unsigned c = i % ch;
    unsigned step = stride % ch;
    for (; i < n; i += stride) {
        float v = __fmul_rn(__fsub_rn(x[i], centre[c]), scale[c]);
        y[i] = __fadd_rn(g == 0 ? v : __fadd_rn(__fmul_rn(gScale[c], g[i]), v), shift[c]);
        c += step;
        if (c >= ch) {
            c -= ch;
        }
    }
}

// Stage 2 of the backward pass, one warp per channel (8 per block of 256), the CPU's formulas: dBeta = Σdy,
// dGamma = Σdy·(x − mean)·invStd (both overwritten), and the coefficients of dx for gr_bn_normalize,
// coefficients[c] = k = gamma·invStd, [channels + c] = kx = −k·invStd·dGamma/n, [2·channels + c] = k0 = −k·dBeta/n.
extern "C" __global__ void gr_bn_backward_stats(const double* partials, int chunks, int rows, int channels,
                                                const float* gamma, const float* invStd, float* dGamma,
                                                float* dBeta, float* coefficients) {
    int c = blockIdx.x * GR_BN_WARPS + (threadIdx.x >> 5);
    __shared__ double lanes[2][GR_BN_WARPS][32];
    double t[2];
    gr_bn_totals(partials, chunks, channels, c, 2, lanes, t);
    if ((threadIdx.x & 31) != 0 || c >= channels) {
        return;
    }
    double s1 = t[0];
    double s2 = t[1];
    double s = (double) invStd[c];
    double dyXhat = s2 * s;
    dBeta[c] = (float) s1;
    dGamma[c] = (float) dyXhat;
    double gain = (double) gamma[c] * s;
    coefficients[c] = (float) gain;
    coefficients[channels + c] = (float) (-gain * s * dyXhat / rows);
    coefficients[2 * channels + c] = (float) (-gain * s1 / rows);
}
