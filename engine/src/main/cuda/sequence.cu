// The transformer's operations (CudaSequence): layer norm, the exact GELU, row softmax, the axis swap that splits
// tokens into attention heads, and column copies.
//
// Each kernel computes what the CPU backend's CpuSequenceKernels computes, in the same order and precision: a row's
// sums run in double, a warp per row (its loads coalesced, then walked in column order), so the statistics are the
// CPU's to the bit; the element-wise float arithmetic and the sums' double products are written with the rounded
// intrinsics (no FMA contraction). Layer norm's parameter gradients sum the rows in chunks, then the chunks, in a
// fixed order (the CPU adds the rows in order). GELU's erf is Erf.java's fitted polynomial and continued fraction, in
// double; change both together.
#include "gridrun.cuh"

// Threads per block of the row kernels: a warp a row, so 4 rows a block.
#define GR_SEQ_THREADS 128
#define GR_SEQ_WARPS (GR_SEQ_THREADS / 32)

// y = gamma·(x − mean)·invStd + beta per row of x (rows × n); mean and invStd (one per row) written.
extern "C" __global__ void __launch_bounds__(GR_SEQ_THREADS) gr_seq_layer_norm(const float* x, const float* gamma,
        const float* beta, int rows, int n, float eps, float* mean, float* invStd, float* y) {
    __shared__ float stages[GR_SEQ_WARPS][32];
    float* stage = stages[threadIdx.x >> 5];
    int lane = threadIdx.x & 31;
    GR_FOR_EACH_WARP(r, rows) {
        const float* xr = x + r * n;
        double sum = 0;
        gr_warp_walk(stage, n, [&](int j) { return xr[j]; }, [&](int, float v) { sum = __dadd_rn(sum, (double) v); });
        float mu = (float) (sum / n);
        double squares = 0;
        gr_warp_walk(stage, n, [&](int j) { return __fsub_rn(xr[j], mu); }, [&](int, float v) {
            double d = (double) v;
            squares = __dadd_rn(squares, __dmul_rn(d, d));
        });
        float inv = (float) (1.0 / sqrt(squares / n + (double) eps));
        if (lane == 0) {
            mean[r] = mu;
            invStd[r] = inv;
        }
        for (int j = lane; j < n; j += 32) {
            y[r * n + j] = __fadd_rn(__fmul_rn(gamma[j], __fmul_rn(__fsub_rn(xr[j], mu), inv)), beta[j]);
        }
    }
}

// The input gradient of a layer norm: dx = invStd·(dy·gamma − mean(dy·gamma) − x̂·mean(dy·gamma·x̂)) per row.
extern "C" __global__ void __launch_bounds__(GR_SEQ_THREADS) gr_seq_layer_norm_dx(const float* x, const float* dy,
        const float* gamma, const float* mean, const float* invStd, int rows, int n, float* dx) {
    __shared__ float2 stages[GR_SEQ_WARPS][32];
    float2* stage = stages[threadIdx.x >> 5];
    int lane = threadIdx.x & 31;
    GR_FOR_EACH_WARP(r, rows) {
        float mu = mean[r];
        float inv = invStd[r];
        double sumG = 0;
        double sumGx = 0;
        gr_warp_walk(stage, n, [&](int j) {
            return make_float2(__fmul_rn(dy[r * n + j], gamma[j]), __fmul_rn(__fsub_rn(x[r * n + j], mu), inv));
        }, [&](int, float2 v) {
            double g = (double) v.x;
            sumG = __dadd_rn(sumG, g);
            sumGx = __dadd_rn(sumGx, __dmul_rn(g, (double) v.y));
        });
        float meanG = (float) (sumG / n);
        float meanGx = (float) (sumGx / n);
        for (int j = lane; j < n; j += 32) {
            float xhat = __fmul_rn(__fsub_rn(x[r * n + j], mu), inv);
            float g = __fsub_rn(__fsub_rn(__fmul_rn(dy[r * n + j], gamma[j]), meanG), __fmul_rn(xhat, meanGx));
            dx[r * n + j] = __fmul_rn(inv, g);
        }
    }
}

// The scale and shift gradients of a layer norm, Σ_r dy·x̂ and Σ_r dy per column, in double, in two passes: one
// thread per column over all the rows (8,320 in a ViT step at batch 128) left the GPU nearly idle. The first pass,
// block (x, y): 32 columns from 32·x and rows [y·chunk, (y + 1)·chunk); its 8 warps take rows w, w + 8, … (a warp
// reads 32 adjacent columns of a row) and their sums are added in warp order into partial[y·n + j]. A fixed order,
// so the same bits every run; within a few units of the last place of the CPU's row-order sums.
#define GR_SEQ_PARAM_WARPS 8
extern "C" __global__ void gr_seq_layer_norm_params_chunks(const float* x, const float* dy, const float* mean,
                                                           const float* invStd, int rows, int n, int chunk,
                                                           double* partialGamma, double* partialBeta) {
    __shared__ double gammaSums[GR_SEQ_PARAM_WARPS][32];
    __shared__ double betaSums[GR_SEQ_PARAM_WARPS][32];
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    int j = blockIdx.x * 32 + lane;
    long long from = (long long) blockIdx.y * chunk;
    long long to = min(from + chunk, (long long) rows);
    double sumGamma = 0;
    double sumBeta = 0;
    if (j < n) {
        for (long long r = from + warp; r < to; r += GR_SEQ_PARAM_WARPS) {
            float g = dy[r * n + j];
            float xhat = __fmul_rn(__fsub_rn(x[r * n + j], mean[r]), invStd[r]);
            sumGamma += (double) __fmul_rn(g, xhat);
            sumBeta += (double) g;
        }
    }
    gammaSums[warp][lane] = sumGamma;
    betaSums[warp][lane] = sumBeta;
    __syncthreads();
    if (warp == 0 && j < n) {
        double g = gammaSums[0][lane];
        double b = betaSums[0][lane];
        for (int w = 1; w < GR_SEQ_PARAM_WARPS; w++) {
            g += gammaSums[w][lane];
            b += betaSums[w][lane];
        }
        partialGamma[(long long) blockIdx.y * n + j] = g;
        partialBeta[(long long) blockIdx.y * n + j] = b;
    }
}

// The second pass: each column's chunk sums added in chunk order, rounded to float once.
extern "C" __global__ void gr_seq_layer_norm_params_sum(const double* partialGamma, const double* partialBeta,
                                                        int chunks, int n, float* dGamma, float* dBeta) {
    GR_FOR_EACH(j, n) {
        double g = 0;
        double b = 0;
        for (int c = 0; c < chunks; c++) {
            g += partialGamma[(long long) c * n + j];
            b += partialBeta[(long long) c * n + j];
        }
        dGamma[j] = (float) g;
        dBeta[j] = (float) b;
    }
}

// erf(u) as Erf.erf: u·p((u² − 2)/2) below 2, Laplace's continued fraction for erfc from 2, ±1 from 6.
__device__ __forceinline__ double gr_erf(double u) {
    double a = fabs(u);
    if (a < 2) {
        double t = (u * u - 2) * 0.5;
        double p = 6.529672452071725e-08;
        p = p * t + -4.3345482415520966e-07;
        p = p * t + 2.4700994181941286e-06;
        p = p * t + -1.3909698680422965e-05;
        p = p * t + 7.180492051183733e-05;
        p = p * t + -0.0003351655966023202;
        p = p * t + 0.001405090048769666;
        p = p * t + -0.005234869380519519;
        p = p * t + 0.017128344801684445;
        p = p * t + -0.04866277825781386;
        p = p * t + 0.11947913859544901;
        p = p * t + -0.261111860902321;
        p = p * t + 0.674933236039863;
        return u * p;
    }
    double one = u < 0 ? -1.0 : 1.0;
    if (a >= 6) {
        return one;
    }
    double f = a;
    for (int k = 40; k >= 1; k--) {
        f = a + 0.5 * k / f;
    }
    return one * (1 - exp(-a * a) * 0.5641895835477563 / f);
}

__device__ __forceinline__ double gr_normal_cdf(double v) {
    return 0.5 * (1 + gr_erf(v * 0.7071067811865476));
}

// y = x·Φ(x).
extern "C" __global__ void gr_seq_gelu(const float* x, float* y, int n) {
    GR_FOR_EACH(i, n) {
        double v = (double) x[i];
        y[i] = (float) (v * gr_normal_cdf(v));
    }
}

// dx = dy·(Φ(x) + x·φ(x)).
extern "C" __global__ void gr_seq_gelu_backward(const float* x, const float* dy, float* dx, int n) {
    GR_FOR_EACH(i, n) {
        double v = (double) x[i];
        double slope = gr_normal_cdf(v) + v * exp(-0.5 * v * v) * 0.3989422804014327;
        dx[i] = (float) ((double) dy[i] * slope);
    }
}

// The softmax of each row of x (rows × n) into y: each lane exponentiates its own values, the sum runs in column
// order.
extern "C" __global__ void __launch_bounds__(GR_SEQ_THREADS) gr_seq_softmax(const float* x, float* y, int rows,
                                                                           int n) {
    __shared__ float stages[GR_SEQ_WARPS][32];
    float* stage = stages[threadIdx.x >> 5];
    int lane = threadIdx.x & 31;
    GR_FOR_EACH_WARP(r, rows) {
        const float* xr = x + r * n;
        float* yr = y + r * n;
        float max = -__int_as_float(0x7f800000);
        gr_warp_walk(stage, n, [&](int j) { return xr[j]; }, [&](int, float v) { max = fmaxf(max, v); });
        double sum = 0;
        gr_warp_walk(stage, n, [&](int j) {
            float e = (float) exp((double) __fsub_rn(xr[j], max));
            yr[j] = e;
            return e;
        }, [&](int, float e) { sum = __dadd_rn(sum, (double) e); });
        float inv = (float) (1.0 / sum);
        // each lane scales the values it wrote
        for (int j = lane; j < n; j += 32) {
            yr[j] = __fmul_rn(yr[j], inv);
        }
    }
}

// dx = y·(dy − Σ dy·y) per row.
extern "C" __global__ void __launch_bounds__(GR_SEQ_THREADS) gr_seq_softmax_backward(const float* y, const float* dy,
                                                                                    float* dx, int rows, int n) {
    __shared__ float2 stages[GR_SEQ_WARPS][32];
    float2* stage = stages[threadIdx.x >> 5];
    int lane = threadIdx.x & 31;
    GR_FOR_EACH_WARP(r, rows) {
        double dot = 0;
        gr_warp_walk(stage, n, [&](int j) { return make_float2(dy[r * n + j], y[r * n + j]); }, [&](int, float2 v) {
            dot = __dadd_rn(dot, __dmul_rn((double) v.x, (double) v.y));
        });
        float d = (float) dot;
        for (int j = lane; j < n; j += 32) {
            dx[r * n + j] = __fmul_rn(y[r * n + j], __fsub_rn(dy[r * n + j], d));
        }
    }
}

// y[o][j][i][k] = x[o][i][j][k] for x seen as [outer][a][b][inner]; one thread per element of y.
extern "C" __global__ void gr_seq_swap_axes(const float* x, float* y, int outer, int a, int b, int inner) {
    long long total = (long long) outer * a * b * inner;
    GR_FOR_EACH(e, total) {
        long long k = e % inner;
        long long rest = e / inner;
        long long i = rest % a;
        rest /= a;
        long long j = rest % b;
        long long o = rest / b;
        y[e] = x[((o * a + i) * b + j) * inner + k];
    }
}

// dst[r][dstColumn + k] = src[r][srcColumn + k] for k < width, every row r.
extern "C" __global__ void gr_seq_copy_columns(const float* src, int srcCols, int srcColumn, float* dst,
                                               int dstCols, int dstColumn, int rows, int width) {
    long long total = (long long) rows * width;
    GR_FOR_EACH(e, total) {
        long long r = e / width;
        long long k = e % width;
        dst[r * dstCols + dstColumn + k] = src[r * srcCols + srcColumn + k];
    }
}
