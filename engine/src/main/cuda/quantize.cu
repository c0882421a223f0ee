// Level quantizers on the GPU (CudaLevelCodec): the payloads of qsgd, qinf, trn, nuq and the adaptive methods, byte
// for byte what the CPU encoder (org.gridrun.engine.compress.LevelQuantizer) writes for the same random stream.
//
// The payload is the bucket norms as float32 (the GPU is little-endian, as the wire format), then one `bits`-bit
// level index per value, least significant bit first, no padding. Two kernels:
//   - gr_level_norms: one block per bucket, the CPU's order of additions (128 interleaved double chains and a fixed
//     tree; ChainSums.chains) or the largest sign-cleared bit pattern;
//   - gr_level_uniform_codes (uniform levels, rounded arithmetically) and gr_level_search_codes (any levels, through
//     LevelSearch's cell tables): a block computes a tile of values' codes into shared memory, one value a thread
//     (coalesced reads), then writes the tile's words, one a thread (gr_tiled_codes). No thread writes another's
//     word, so there are no atomics and the bits do not depend on the schedule.
// gr_level_decode_mean decodes a payload into the workers' mean, as the host's collective does.
// Value e takes the 16-bit uniform at bits 48 − 16·(e mod 4) of draw first + e/4 (Uniform16).
#include "gridrun.cuh"

// The bucket holding value e: the last k with starts[k] <= e (Buckets.indexOf).
__device__ __forceinline__ int gr_bucket_of(const int* starts, int buckets, long long e) {
    return gr_last_at_most(starts, 0, buckets, e);
}

// The buckets of a block's values [from, to], found once by its first thread into range (shared; every thread of
// the block must call it): a search of all the buckets a value made a kernel slow on a GPU.
__device__ __forceinline__ void gr_block_buckets(const int* starts, int buckets, long long from, long long to,
                                                 int* range) {
    if (threadIdx.x == 0) {
        range[0] = gr_bucket_of(starts, buckets, from);
        range[1] = gr_bucket_of(starts, buckets, to);
    }
    __syncthreads();
}

// The bucket of value e among the block's buckets (gr_block_buckets), e in the block's values.
__device__ __forceinline__ int gr_bucket_in(const int* starts, const int* range, long long e) {
    return gr_last_at_most(starts, range[0], range[1] + 1, e);
}

// Word w of the codes of n values (`bits` each, LSB first): bits [32w, 32w + 32) of the code stream, zero past its
// end; code(e) gives value e's level index.
template <class Code>
__device__ __forceinline__ unsigned gr_code_word(long long w, long long n, int bits, Code code) {
    return gr_stream_word(32 * w, n, bits, code);
}

// Java's Math.max and Math.min of floats: NaN if either is NaN, and +0 above −0.
__device__ __forceinline__ float gr_java_maxf(float a, float b) {
    if (a != a || b != b) {
        return __int_as_float(0x7FC00000);
    }
    if (a == 0.0f && b == 0.0f) {
        return (__float_as_int(a) & 0x80000000) ? b : a;
    }
    return a > b ? a : b;
}
__device__ __forceinline__ float gr_java_minf(float a, float b) {
    if (a != a || b != b) {
        return __int_as_float(0x7FC00000);
    }
    if (a == 0.0f && b == 0.0f) {
        return (__float_as_int(a) & 0x80000000) ? a : b;
    }
    return a < b ? a : b;
}

// LevelQuantizer.clamp: v clipped to [−bound, bound], Java's rules.
__device__ __forceinline__ float gr_clamp(float v, float bound) {
    return gr_java_minf(gr_java_maxf(v, -bound), bound);
}

// norms[k] of bucket k = [starts[k], starts[k + 1]) of g and its clipping bound bounds[k] (+∞ without clipping; the
// kernel arguments have no double, so clipSigmas comes as a float, exact for TernGrad's 2.5): the L2 norm (linf = 0)
// or the largest magnitude (LevelQuantizer.Norm.of) of the values clamped to the bound. One block of GR_CHAINS
// threads per bucket, thread j taking values from + j, from + j + 128, … in order:
//   - the bound (TernGrad.clipBound): clipSigmas standard deviations, the mean and the squared deviations each summed
//     in ChainSums' chains and tree;
//   - L2: the squares (of the clamped values where the bound is finite) in the same chains and tree;
//   - L∞: the largest magnitude, a maximum whose order does not matter: sign-cleared bit patterns where unclipped,
//     the clamped values' magnitudes in double (a NaN wins, as Math.max) where clipped.
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_level_norms(const float* g, const int* starts,
                                                                      int buckets, int linf, float clipSigmas,
                                                                      float* bounds, float* norms) {
    __shared__ double sums[GR_CHAINS];
    __shared__ int largest[GR_CHAINS];
    int j = threadIdx.x;
    for (int k = blockIdx.x; k < buckets; k += gridDim.x) {
        int from = starts[k];
        int to = starts[k + 1];
        float bound = __int_as_float(0x7F800000);
        if (clipSigmas != 0) {
            double acc = 0;
            for (int i = from + j; i < to; i += GR_CHAINS) {
                acc = __dadd_rn(acc, (double) g[i]);
            }
            sums[j] = acc;
            double mean = gr_chain_sum(sums) / (double) (to - from);
            acc = 0;
            for (int i = from + j; i < to; i += GR_CHAINS) {
                double d = __dsub_rn((double) g[i], mean);
                acc = __dadd_rn(acc, __dmul_rn(d, d));
            }
            sums[j] = acc;
            double squares = gr_chain_sum(sums);
            bound = (float) __dmul_rn((double) clipSigmas, sqrt(squares / (double) (to - from)));
        }
        bool clipped = bound != __int_as_float(0x7F800000);
        float norm;
        if (linf && !clipped) {
            int m = 0;
            for (int i = from + j; i < to; i += GR_CHAINS) {
                m = max(m, __float_as_int(g[i]) & 0x7FFFFFFF);
            }
            largest[j] = m;
            __syncthreads();
            for (int h = GR_CHAINS / 2; h > 0; h >>= 1) {
                if (j < h) {
                    largest[j] = max(largest[j], largest[j + h]);
                }
                __syncthreads();
            }
            norm = __int_as_float(largest[0]);
        } else if (linf) {
            double acc = 0;
            for (int i = from + j; i < to; i += GR_CHAINS) {
                double m = (double) fabsf(gr_clamp(g[i], bound));
                acc = acc != acc || m != m ? (double) __int_as_float(0x7FC00000) : (m > acc ? m : acc);
            }
            sums[j] = acc;
            __syncthreads();
            for (int h = GR_CHAINS / 2; h > 0; h >>= 1) {
                if (j < h) {
                    double a = sums[j];
                    double b = sums[j + h];
                    sums[j] = a != a || b != b ? (double) __int_as_float(0x7FC00000) : (b > a ? b : a);
                }
                __syncthreads();
            }
            norm = (float) sums[0];
        } else {
            double acc = 0;
            for (int i = from + j; i < to; i += GR_CHAINS) {
                double v = clipped ? (double) gr_clamp(g[i], bound) : (double) g[i];
                acc = __dadd_rn(acc, __dmul_rn(v, v));
            }
            sums[j] = acc;
            norm = (float) sqrt(gr_chain_sum(sums));
        }
        if (j == 0) {
            bounds[k] = bound;
            norms[k] = gr_canonical(norm);
        }
        __syncthreads();
    }
}

// The words of the codes a block writes at a time, one tile: 256 words, 8,192 bits, at most 8,192 codes (1 bit) and
// one more where a code straddles the tile's end.
#define GR_CODE_TILE 256

// Value e's 16-bit uniform (Uniform16): bits 48 − 16·(e mod 4) of draw first + e/4.
__device__ __forceinline__ long long gr_uniform16(unsigned long long key, long long first, long long e) {
    unsigned long long draw = gr_draw(key, (unsigned long long) (first + (e >> 2)));
    return (long long) ((draw >> (48 - 16 * (e & 3))) & 0xFFFFULL);
}

// The codes of n values, `bits` (1 to 8) each, as words (gr_code_word), a tile of GR_CODE_TILE words a block at a
// time. First each thread computes the codes of the tile's values e, e + blockDim.x, … (the reads of g coalesce) into
// shared memory, through the bucket of each: found by a search of the tile's buckets for the thread's first value,
// then by following the bucket starts forward, its shared values (`bucket(k)`) made once a bucket. Then each word
// gathers its codes from there. A code that straddles two tiles is computed by both blocks, alike, and no thread
// writes another's word, so the bits do not depend on the schedule. code(b, v, u) gives the code of value v with
// uniform u in bucket b.
template <class Bucket, class MakeBucket, class Code>
__device__ __forceinline__ void gr_tiled_codes(const float* g, long long n, const int* starts, int buckets, int bits,
                                               unsigned long long key, long long first, unsigned* words,
                                               long long wordCount, MakeBucket bucket, Code code) {
    __shared__ unsigned char codes[32 * GR_CODE_TILE + 1];
    __shared__ int tileBuckets[2];
    for (long long tile = blockIdx.x; tile * GR_CODE_TILE < wordCount; tile += gridDim.x) {
        long long lowBit = 32LL * GR_CODE_TILE * tile;
        long long from = lowBit / bits;
        long long to = min((lowBit + 32LL * GR_CODE_TILE - 1) / bits, n - 1);
        gr_block_buckets(starts, buckets, from, to, tileBuckets);
        int k = -1;
        long long next = 0;
        Bucket b;
        for (long long e = from + threadIdx.x; e <= to; e += blockDim.x) {
            if (k < 0 || e >= next) {
                k = k < 0 ? gr_bucket_in(starts, tileBuckets, e) : k;
                while (e >= starts[k + 1]) {
                    k++;
                }
                next = starts[k + 1];
                b = bucket(k);
            }
            codes[e - from] = (unsigned char) code(b, g[e], gr_uniform16(key, first, e));
        }
        __syncthreads();
        long long end = min(wordCount, (tile + 1) * GR_CODE_TILE);
        for (long long w = tile * GR_CODE_TILE + threadIdx.x; w < end; w += blockDim.x) {
            words[w] = gr_code_word(w, n, bits, [&](long long e) { return (unsigned) codes[e - from]; });
        }
        __syncthreads();
    }
}

// What a bucket's values share on `top + 1` uniform levels: ratio = (top/2)/‖b‖ and the clipping bound; `zero` for
// a zero or non-finite norm, whose values all get code 0.
struct GrUniformBucket {
    bool zero;
    float half;
    float ratio;
    float bound;
};

__device__ __forceinline__ GrUniformBucket gr_uniform_bucket(const float* norms, const float* bounds, int top, int k) {
    GrUniformBucket b;
    float scale = norms[k];
    b.zero = scale == 0.0f || !(fabsf(scale) <= 3.4028235e38f);
    b.half = top * 0.5f;
    b.ratio = b.zero ? 0.0f : __fdiv_rn(b.half, scale);
    b.bound = bounds[k];
    return b;
}

// The level index of value v with uniform u on uniform levels in [-1, 1] (LevelQuantizer.uniformCode): t = v·ratio +
// top/2, then floor(t + u/2^16) in integers, at most top; 0 in a zero bucket.
__device__ __forceinline__ unsigned gr_uniform_code(const GrUniformBucket& b, int top, float v, long long u) {
    if (b.zero) {
        return 0;
    }
    float t = __fadd_rn(__fmul_rn(gr_clamp(v, b.bound), b.ratio), b.half);
    // Java's long sum wraps (a saturated t plus u goes negative); in unsigned arithmetic, as C's signed overflow is
    // undefined, then shifted as a signed value and cut to its low 32 bits, as Java's (int) of a long.
    long long sum = (long long) ((unsigned long long) gr_java_long(__fmul_rn(t, 65536.0f)) + (unsigned long long) u);
    int code = (int) (unsigned) (unsigned long long) (sum >> 16);
    return (unsigned) min(code, top);
}

// The codes of uniform levels (gr_uniform_code), a tile of words a block (gr_tiled_codes).
extern "C" __global__ void gr_level_uniform_codes(const float* g, long long n, const int* starts, int buckets,
                                                  const float* norms, const float* bounds, int bits, int top,
                                                  unsigned long long key, long long first, unsigned* words,
                                                  long long wordCount) {
    gr_tiled_codes<GrUniformBucket>(g, n, starts, buckets, bits, key, first, words, wordCount,
        [&](int k) { return gr_uniform_bucket(norms, bounds, top, k); },
        [&](const GrUniformBucket& b, float v, long long u) { return gr_uniform_code(b, top, v, u); });
}

// What a bucket's values share for any sorted levels: 1/‖b‖ in double and the clipping bound; `zero` for a zero or
// non-finite norm.
struct GrSearchBucket {
    bool zero;
    double inverse;
    float bound;
};

__device__ __forceinline__ GrSearchBucket gr_search_bucket(const float* norms, const float* bounds, int k) {
    GrSearchBucket b;
    float scale = norms[k];
    b.zero = scale == 0.0f || !(fabsf(scale) <= 3.4028235e38f);
    b.inverse = b.zero ? 0.0 : 1.0 / (double) scale;
    b.bound = bounds[k];
    return b;
}

// The level index of value v with uniform u for any sorted levels (LevelSearch.index on r = v·(1/‖b‖) in double):
// the cell of r gives a first bracket, widened until it holds r, then halved; the upper level with probability
// (r − l_lo)·inverseGap_lo, as floor of that plus u/2^16. Values at or below the first level (and NaN) give 0, at or
// above the last the top index; a zero bucket gives 0.
__device__ __forceinline__ unsigned gr_search_code(const GrSearchBucket& b, float v, long long u,
                                                   const double* levels, int top, const double* inverseGap,
                                                   const int* below, const int* above, int cells) {
    if (b.zero) {
        return 0;
    }
    double r = __dmul_rn((double) gr_clamp(v, b.bound), b.inverse);
    if (!(r > levels[0])) {
        return 0;
    }
    if (r >= levels[top]) {
        return (unsigned) top;
    }
    int c = min((int) __dmul_rn(__dadd_rn(r, 1.0), (double) (cells / 2)), cells - 1);
    int lo = below[c];
    int hi = above[c];
    while (lo > 0 && levels[lo] > r) {
        lo--;
    }
    while (hi < top && levels[hi] < r) {
        hi++;
    }
    lo = gr_last_at_most(levels, lo, hi, r);
    return (unsigned) (lo + (int) __dadd_rn(__dmul_rn(__dsub_rn(r, levels[lo]), inverseGap[lo]),
                                            (double) u * 1.52587890625e-05));
}

// gr_level_uniform_codes for any sorted levels, through LevelSearch's tables (gr_search_code).
extern "C" __global__ void gr_level_search_codes(const float* g, long long n, const int* starts, int buckets,
                                                 const float* norms, const float* bounds, int bits,
                                                 const double* levels, int top,
                                                 const double* inverseGap, const int* below, const int* above,
                                                 int cells, unsigned long long key, long long first, unsigned* words,
                                                 long long wordCount) {
    gr_tiled_codes<GrSearchBucket>(g, n, starts, buckets, bits, key, first, words, wordCount,
        [&](int k) { return gr_search_bucket(norms, bounds, k); },
        [&](const GrSearchBucket& b, float v, long long u) {
            return gr_search_code(b, v, u, levels, top, inverseGap, below, above, cells);
        });
}

// Worker `worker`'s decoded payload added to the mean of `workers` gradients in `mean` (SimulatedCollective.addToMean
// after LevelQuantizer.decode): worker 0 writes, the others add in order, the last multiplies by `inverse`
// (1f/workers). Index j of a bucket with norm s decodes to (float) (s·levels[j]) in double, an index past the
// `count` levels to NaN, every index of a zero norm to 0 and of a non-finite norm to NaN. One thread per value, in
// blocks that stride over the values together (the block's buckets are shared).
// Value e of a payload decoded (see gr_level_decode_mean) with its bucket's norm `scale`.
__device__ __forceinline__ float gr_level_decode(const unsigned char* payload, int buckets, int bits,
                                                 const double* levels, int count, float scale, long long e) {
    long long bit = 32LL * buckets + e * bits;
    long long at = bit >> 3;
    int shift = (int) (bit & 7);
    unsigned window = payload[at];
    if (shift + bits > 8) {
        window |= (unsigned) payload[at + 1] << 8;
    }
    int j = (int) ((window >> shift) & ((1u << bits) - 1u));
    if (scale == 0.0f) {
        return 0.0f;
    }
    if (!(fabsf(scale) <= 3.4028235e38f) || j >= count) {
        return __int_as_float(0x7FC00000);
    }
    return (float) __dmul_rn((double) scale, levels[j]);
}

extern "C" __global__ void gr_level_decode_mean(const unsigned char* payload, long long n, const int* starts,
                                                int buckets, int bits, const double* levels, int count, int worker,
                                                int workers, float inverse, float* mean) {
    __shared__ int blockBuckets[2];
    const float* norms = (const float*) payload;
    long long stride = (long long) blockDim.x * gridDim.x;
    for (long long base = (long long) blockIdx.x * blockDim.x; base < n; base += stride) {
        // each thread's bucket lies between those of the block's first and last value (most often the same one)
        gr_block_buckets(starts, buckets, base, min(base + (long long) blockDim.x, n) - 1, blockBuckets);
        long long e = base + threadIdx.x;
        if (e < n) {
            float scale = norms[gr_bucket_in(starts, blockBuckets, e)];
            float v = gr_level_decode(payload, buckets, bits, levels, count, scale, e);
            float m = worker == 0 ? v : __fadd_rn(mean[e], v);
            mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
        }
        __syncthreads();
    }
}
