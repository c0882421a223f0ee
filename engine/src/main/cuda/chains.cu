// Long sums in double precision in org.gridrun.engine.compress.ChainSums' order, so that the device codecs write the
// host's bits (signSGD's scale, SmaQ's moments): the values in chunks of 8192 from the start, each chunk one block of
// 128 threads, thread j adding the term of values j, j + 128, … of its chunk in order (gr_chain_fold: eight loads in
// flight a thread), the threads' chains meeting in a fixed tree in shared memory (chain j takes chain j + h for
// h = 64, …, 1); the chunks' partial sums are summed the same way by the next launch, until one is left. No atomics.
#include "gridrun.cuh"

#define GR_CHUNK 8192

// The term a value adds: 0 the value, 1 its magnitude, 2 its square (exact in double).
__device__ __forceinline__ double gr_chain_term(double a, int term) {
    return term == 0 ? a : term == 1 ? fabs(a) : __dmul_rn(a, a);
}

// partials[c] = the sum of the terms of chunk c of the n values of x (one chunk, partials[0], for n <= GR_CHUNK).
// Blocks of GR_CHAINS threads, a grid-stride loop over the chunks; `sums` is the block's shared GR_CHAINS doubles.
template <class T>
__device__ __forceinline__ void gr_chain_level(const T* x, long long n, int term, double* partials, double* sums) {
    int j = threadIdx.x;
    long long chunks = n > GR_CHUNK ? (n + GR_CHUNK - 1) / GR_CHUNK : 1;
    for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
        long long from = c * GR_CHUNK;
        long long to = n < from + GR_CHUNK ? n : from + GR_CHUNK;
        sums[j] = gr_chain_fold(x, from, to, 0.0, [&](double acc, T v) {
            return __dadd_rn(acc, gr_chain_term((double) v, term));
        });
        double sum = gr_chain_sum(sums);
        if (j == 0) {
            partials[c] = sum;
        }
    }
}

// The first level: the chunks of the n floats of g.
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_chain_partials(const float* g, long long n, int term,
                                                                         double* partials) {
    __shared__ double sums[GR_CHAINS];
    gr_chain_level(g, n, term, partials, sums);
}

// The next levels: the chunks of the n partial sums of p, added as they are.
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_chain_partials_doubles(const double* p, long long n,
                                                                                 double* partials) {
    __shared__ double sums[GR_CHAINS];
    gr_chain_level(p, n, 0, partials, sums);
}

// Gradient clipping (GradientClip): with norm = sqrt(*squares), the sum of squares in the chains' order, each of the
// n values of g becomes g·(float) (max / (norm + 1e-6)) when norm > max (a NaN norm clips nothing), in Java's
// arithmetic: a correctly rounded double square root and division, one float product a value, a NaN product (an
// infinity times the 0 of an infinite norm) as the canonical NaN. max is passed as the bits of a double. One thread
// per value.
extern "C" __global__ void gr_clip_to_norm(float* g, long long n, const double* squares, long long maxBits) {
    double max = __longlong_as_double(maxBits);
    double norm = sqrt(*squares);
    if (!(norm > max)) {
        return;
    }
    float scale = (float) (max / (norm + 1e-6));
    GR_FOR_EACH(i, n) {
        g[i] = gr_canonical(__fmul_rn(g[i], scale));
    }
}
