// PowerSGD's step on the GPU (CudaPowerSgd): the power iteration of every worker, its all-reduces, the
// orthonormalisation, the reconstruction and the residual, each float the one the host computes
// (org.gridrun.engine.compress.PowerSgdRounds, LowRank, Orthonormalizer), to the bit.
//
// The workers' residuals (M during a step) lie one after another, `n` floats each; a factor is its r columns one after
// another, each contiguous (p[k·rows + i] is P[i][k]). Every output value is one thread's, summed in the host loop's
// order with explicitly rounded operations (no FMA contraction); the orthonormalisation is one block's, its dot
// products in ChainSums' order of chains (Orthonormalizer).
#include "gridrun.cuh"

// M = residual + g of one worker's n values (PowerSgd.startStep); the residual starts at 0 where it is not kept.
extern "C" __global__ void gr_lowrank_start(float* residual, const float* g, long long n, int keep) {
    GR_FOR_EACH(i, n) {
        residual[i] = __fadd_rn(keep ? residual[i] : 0.0f, g[i]);
    }
}

// Worker `worker`'s gradient added to the plain average building in `out` (PowerSgdRounds.average): the sum from 0 in
// worker order, divided by the worker count after the last.
extern "C" __global__ void gr_lowrank_average(const float* g, long long n, int worker, int workers, float* out) {
    GR_FOR_EACH(i, n) {
        float sum = __fadd_rn(worker == 0 ? 0.0f : out[i], g[i]);
        out[i] = worker == workers - 1 ? __fdiv_rn(sum, (float) workers) : sum;
    }
}

// The mean of the workers' values [from, from + count) of a tensor sent raw, into out, clearing them
// (PowerSgdRounds.raw).
extern "C" __global__ void gr_lowrank_raw(float* residuals, long long n, int workers, long long from,
                                          long long count, float* out) {
    GR_FOR_EACH(e, count) {
        long long i = from + e;
        float sum = 0.0f;
        for (int w = 0; w < workers; w++) {
            sum = __fadd_rn(sum, residuals[w * n + i]);
            residuals[w * n + i] = 0.0f;
        }
        out[i] = __fdiv_rn(sum, (float) workers);
    }
}

// Item e of each worker's P = M·Q of the rows × cols matrix at m (in residual w, n apart) into sent + w·stride
// (LowRank.times): worker w, column k and row i, the row's products summed in column order by dot(row, column);
// written where `writes`.
template <class Dot>
__device__ __forceinline__ void gr_lowrank_times_item(const float* m, long long n, int rows, int cols, const float* q,
                                                      int r, float* sent, long long stride, long long e, bool writes,
                                                      Dot dot) {
    int i = (int) (e % rows);
    int k = (int) (e / rows % r);
    long long w = e / rows / r;
    float sum = dot(m + w * n + (long long) i * cols, q + (long long) k * cols);
    if (writes) {
        sent[w * stride + (long long) k * rows + i] = sum;
    }
}

// Item e of P = M·Q on one thread (gr_lowrank_half's left side).
__device__ void gr_lowrank_times_one(const float* m, long long n, int rows, int cols, const float* q, int r,
                                     float* sent, long long stride, long long e) {
    gr_lowrank_times_item(m, n, rows, cols, q, r, sent, stride, e, true, [&](const float* row, const float* column) {
        float sum = 0.0f;
        for (int j = 0; j < cols; j++) {
            sum = __fadd_rn(sum, __fmul_rn(row[j], column[j]));
        }
        return sum;
    });
}

// Each worker's P = M·Q, a warp an item: the lanes read 32 of row i's values at a time (one thread an item read its
// row alone, rows apart from its neighbours'), then every lane adds the products in column order, as the host does.
// Blocks of 128 threads, 4 items.
extern "C" __global__ void __launch_bounds__(128) gr_lowrank_times(const float* m, long long n, int workers, int rows,
                                                                   int cols, const float* q, int r, float* sent,
                                                                   long long stride) {
    __shared__ float stages[4][32];
    float* stage = stages[threadIdx.x >> 5];
    GR_FOR_EACH_WARP(e, (long long) workers * r * rows) {
        gr_lowrank_times_item(m, n, rows, cols, q, r, sent, stride, e, (threadIdx.x & 31) == 0,
                              [&](const float* row, const float* column) {
            float sum = 0.0f;
            gr_warp_walk(stage, cols, [&](int j) { return __fmul_rn(row[j], column[j]); },
                         [&](int, float product) { sum = __fadd_rn(sum, product); });
            return sum;
        });
    }
}

// Item e of each worker's Mᵀ·P into sent + w·stride (LowRank.transposeTimes): worker, column k and value j, summed
// over the rows in order. Worker 0 multiplies by p, the others by others.
__device__ void gr_lowrank_transpose_times_one(const float* m, long long n, int rows, int cols, const float* p,
                                               const float* others, int r, float* sent, long long stride,
                                               long long e) {
    int j = (int) (e % cols);
    int k = (int) (e / cols % r);
    long long w = e / cols / r;
    const float* matrix = m + w * n + j;
    const float* column = (w == 0 ? p : others) + (long long) k * rows;
    float sum = 0.0f;
    for (int i = 0; i < rows; i++) {
        sum = __fadd_rn(sum, __fmul_rn(column[i], matrix[(long long) i * cols]));
    }
    sent[w * stride + (long long) k * cols + j] = sum;
}

// Each worker's Mᵀ·P̂ (gr_lowrank_transpose_times_one): one thread per worker, column k and value j; the workers after
// the first multiply by others (on the host they orthonormalise worker 0's P̂ once more).
extern "C" __global__ void gr_lowrank_transpose_times(const float* m, long long n, int workers, int rows, int cols,
                                                      const float* p, const float* others, int r, float* sent,
                                                      long long stride) {
    GR_FOR_EACH(e, (long long) workers * r * cols) {
        gr_lowrank_transpose_times_one(m, n, rows, cols, p, others, r, sent, stride, e);
    }
}

// The alternating variant's half iteration (PowerSgdRounds.alternate): with `left`, each worker's M·Q̂, else each
// worker's Mᵀ·P̂, of the kept factor orthonormalised in place; launched alike for both sides, so that a step replayed as
// a graph changes only arguments.
extern "C" __global__ void gr_lowrank_half(const float* m, long long n, int workers, int rows, int cols,
                                           const float* kept, int r, float* sent, long long stride, int left) {
    GR_FOR_EACH(e, (long long) workers * r * (left ? rows : cols)) {
        if (left) {
            gr_lowrank_times_one(m, n, rows, cols, kept, r, sent, stride, e);
        } else {
            gr_lowrank_transpose_times_one(m, n, rows, cols, kept, kept, r, sent, stride, e);
        }
    }
}

// The first all-reduce (PowerSgdRounds.allReduceSum): worker 0's values, then the others' added in order.
extern "C" __global__ void gr_lowrank_sum(const float* sent, long long stride, int workers, long long length,
                                          float* sum) {
    GR_FOR_EACH(i, length) {
        float s = sent[i];
        for (int w = 1; w < workers; w++) {
            s = __fadd_rn(s, sent[w * stride + i]);
        }
        sum[i] = s;
    }
}

// The second all-reduce (PowerSgdRounds.allReduceMean): the sum from 0 in worker order over the worker count.
extern "C" __global__ void gr_lowrank_mean(const float* sent, long long stride, int workers, long long length,
                                           float* mean) {
    GR_FOR_EACH(i, length) {
        float s = 0.0f;
        for (int w = 0; w < workers; w++) {
            s = __fadd_rn(s, sent[w * stride + i]);
        }
        mean[i] = __fdiv_rn(s, (float) workers);
    }
}

// P·Qᵀ of a rows × cols tensor added to its values in out and taken out of every worker's M (PowerSgdRounds.share,
// LowRank.productRow): one thread per value.
extern "C" __global__ void gr_lowrank_share(const float* p, int rows, const float* q, int cols, int r, float* out,
                                            float* m, long long n, int workers) {
    GR_FOR_EACH(e, (long long) rows * cols) {
        int i = (int) (e / cols);
        int j = (int) (e % cols);
        float v = 0.0f;
        for (int k = 0; k < r; k++) {
            v = __fadd_rn(v, __fmul_rn(p[(long long) k * rows + i], q[(long long) k * cols + j]));
        }
        out[e] = __fadd_rn(out[e], v);
        for (int w = 0; w < workers; w++) {
            m[w * n + e] = __fsub_rn(m[w * n + e], v);
        }
    }
}

// The orthonormalisation runs on one block of GR_CHAINS threads (gridrun.cuh), each the chain of Orthonormalizer's
// dot products (ChainSums' order: product i to chain i mod 128, then the tree) and the elements i ≡ its index.

// aᵀb of n floats, in double (Orthonormalizer.dot); every thread of the block calls it and gets it.
__device__ double gr_lowrank_dotf(const float* a, const float* b, int n, double* sums) {
    double acc = 0;
    for (int i = threadIdx.x; i < n; i += GR_CHAINS) {
        acc = __dadd_rn(acc, __dmul_rn((double) a[i], (double) b[i]));
    }
    sums[threadIdx.x] = acc;
    return gr_chain_sum(sums);
}

__device__ double gr_lowrank_dot(const double* a, const double* b, int n, double* sums) {
    double acc = 0;
    for (int i = threadIdx.x; i < n; i += GR_CHAINS) {
        acc = __dadd_rn(acc, __dmul_rn(a[i], b[i]));
    }
    sums[threadIdx.x] = acc;
    return gr_chain_sum(sums);
}

// Orthonormalizer.gramSchmidt: two passes of projections per column, then the column scaled to unit length.
__device__ void gr_lowrank_gram_schmidt(float* p, int rows, int r, double* sums) {
    for (int k = 0; k < r; k++) {
        float* column = p + (long long) k * rows;
        for (int pass = 0; pass < 2; pass++) {
            for (int j = 0; j < k; j++) {
                const float* other = p + (long long) j * rows;
                float c = (float) gr_lowrank_dotf(other, column, rows, sums);
                for (int i = threadIdx.x; i < rows; i += GR_CHAINS) {
                    column[i] = __fsub_rn(column[i], __fmul_rn(c, other[i]));
                }
                __syncthreads();
            }
        }
        double norm = sqrt(gr_lowrank_dotf(column, column, rows, sums));
        if (norm > 0) {
            float inverse = (float) (1 / norm);
            for (int i = threadIdx.x; i < rows; i += GR_CHAINS) {
                column[i] = __fmul_rn(column[i], inverse);
            }
        }
        __syncthreads();
    }
}

// Orthonormalizer.applyReflector: x ← x − β·v·(vᵀx) on rows k… of column c.
__device__ void gr_lowrank_apply_reflector(const double* v, int k, int rows, double beta, double* x, int c,
                                           double* sums) {
    if (beta == 0) {
        return;
    }
    const double* vk = v + (long long) k * rows + k;
    double* xc = x + (long long) c * rows + k;
    double s = __dmul_rn(beta, gr_lowrank_dot(vk, xc, rows - k, sums));
    for (int i = threadIdx.x; i < rows - k; i += GR_CHAINS) {
        xc[i] = __dsub_rn(xc[i], __dmul_rn(s, vk[i]));
    }
    __syncthreads();
}

// Orthonormalizer.householder: the reflectors of a QR of p in double, multiplied out into the first r columns of the
// identity; `work` holds 2·rows·r + r doubles.
__device__ void gr_lowrank_householder(float* p, int rows, int r, double* work, double* sums) {
    long long size = (long long) rows * r;
    double* reflectors = work;
    double* basis = work + size;
    double* beta = work + 2 * size;
    for (long long i = threadIdx.x; i < size; i += GR_CHAINS) {
        reflectors[i] = p[i];
    }
    __syncthreads();
    for (int k = 0; k < r; k++) {
        double* column = reflectors + (long long) k * rows + k;
        double norm = sqrt(gr_lowrank_dot(column, column, rows - k, sums));
        if (norm != 0 && threadIdx.x == 0) {
            column[0] = __dsub_rn(column[0], column[0] > 0 ? -norm : norm);
        }
        __syncthreads();
        double b = norm == 0 ? 0.0 : 2 / gr_lowrank_dot(column, column, rows - k, sums);
        if (threadIdx.x == 0) {
            beta[k] = b;
        }
        for (int c = k + 1; c < r; c++) {
            gr_lowrank_apply_reflector(reflectors, k, rows, b, reflectors, c, sums);
        }
    }
    for (long long i = threadIdx.x; i < size; i += GR_CHAINS) {
        basis[i] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int c = 0; c < r; c++) {
            basis[(long long) c * rows + c] = 1;
        }
    }
    __syncthreads();
    for (int k = r - 1; k >= 0; k--) {
        for (int c = k; c < r; c++) {
            gr_lowrank_apply_reflector(reflectors, k, rows, beta[k], basis, c, sums);
        }
    }
    for (long long i = threadIdx.x; i < size; i += GR_CHAINS) {
        p[i] = (float) basis[i];
    }
}

// Orthonormalizer.apply on the r columns of p (rows ≥ r): Gram-Schmidt up to rank 2, Householder above. One block of
// GR_CHAINS threads, the host's order of operations and of additions.
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_lowrank_orthonormalize(float* p, int rows, int r,
                                                                                   double* work) {
    __shared__ double sums[GR_CHAINS];
    if (blockIdx.x != 0) {
        return;
    }
    if (r <= 2) {
        gr_lowrank_gram_schmidt(p, rows, r, sums);
    } else {
        gr_lowrank_householder(p, rows, r, work, sums);
    }
}
