// Level quantizers on the GPU (CudaLevelCodec): the payloads of qsgd, qinf, trn, nuq and the adaptive methods, byte
// for byte what the CPU encoder (org.gridrun.engine.compress.LevelQuantizer) writes for the same random stream.
//
// The payload is the bucket norms as float32 (the GPU is little-endian, as the wire format), then one `bits`-bit
// level index per value, least significant bit first, no padding. Where every bucket holds at most 8192 values and
// its codes start on a 32-bit word (network-wide buckets of 8192 values, any width), one kernel encodes a bucket a
// block, reading it once into shared memory (gr_level_uniform_fused, gr_level_search_fused: gr_fused_encode).
// Other layouts take two kernels:
//   - gr_level_norms: one block per bucket, the CPU's order of additions (128 interleaved double chains and a fixed
//     tree; ChainSums.chains) or the largest sign-cleared bit pattern, each thread with eight loads in flight;
//   - gr_level_uniform_codes (uniform levels, rounded arithmetically) and gr_level_search_codes (any levels, through
//     LevelSearch's cell tables): a block computes a tile of values' codes into shared memory, four values (one draw,
//     one 16-byte load) a thread at a time, then writes the tile's words, one a thread (gr_tiled_codes). No thread
//     writes another's word, so there are no atomics and the bits do not depend on the schedule.
// gr_level_decode_mean decodes a payload into the workers' mean, as the host's collective does, a tile of values a
// block. Every kernel keeps several loads a warp in flight: a kernel that waits for each load before it asks for the
// next is bound by the memory's latency. So kept, the fused encode and the decode are bound by their instructions per
// value, not by memory (on an H200 they issue at 58 to 69 % of the multiprocessors' rate and use 11 to 32 % of the
// memory's bandwidth, Nsight Compute).
// Value e takes the 16-bit uniform at bits 48 − 16·(e mod 4) of draw first + e/4 (Uniform16).
#include "gridrun.cuh"

// The last index i in [lo, hi) of the sorted array a with a[i] <= v, given a[lo] <= v, found by the 32 lanes of a
// warp: each round a lane tests one of 32 evenly spaced candidates, and the bracket narrows to the last that holds
// (the lanes that hold are a prefix, as a is sorted), so a search of 1,343 buckets takes 3 rounds of loads instead of
// a binary search's 11, one after another. Every lane of the warp must call it, and all get the index.
template <class T, class V>
__device__ __forceinline__ int gr_warp_last_at_most(const T* a, int lo, int hi, V v) {
    int lane = threadIdx.x & 31;
    while (hi - lo > 1) {
        int step = (hi - lo + 31) / 32;
        int i = lo + lane * step;
        unsigned held = __ballot_sync(0xFFFFFFFFu, i < hi && a[i] <= v);
        lo += (__popc(held) - 1) * step;
        hi = min(hi, lo + step);
    }
    return lo;
}

// The buckets of a block's values [from, to], found once by its first two warps (shared; every thread of the block
// must call it, in a block of at least 64 threads): a search of all the buckets a value made a kernel slow on a GPU.
__device__ __forceinline__ void gr_block_buckets(const int* starts, int buckets, long long from, long long to,
                                                 int* range) {
    int warp = threadIdx.x >> 5;
    if (warp < 2) {
        int k = gr_warp_last_at_most(starts, 0, buckets, warp == 0 ? from : to);
        if ((threadIdx.x & 31) == 0) {
            range[warp] = k;
        }
    }
    __syncthreads();
}

// The bucket of value e among the block's buckets (gr_block_buckets), e in the block's values.
__device__ __forceinline__ int gr_bucket_in(const int* starts, const int* range, long long e) {
    return gr_last_at_most(starts, range[0], range[1] + 1, e);
}

// A thread's walk through the buckets of its increasing values in a block's range (gr_block_buckets): the bucket
// of its first value found by a search of the range's buckets, of each later one by following the starts forward.
struct GrBucketWalk {
    int k = -1;
    long long next = 0;

    // Moves to the bucket of e (k); whether it differs from the previous value's, so that what a bucket's values
    // share is made once a bucket.
    __device__ __forceinline__ bool moved(const int* starts, const int* range, long long e) {
        if (k >= 0 && e < next) {
            return false;
        }
        k = k < 0 ? gr_bucket_in(starts, range, e) : k;
        while (e >= starts[k + 1]) {
            k++;
        }
        next = starts[k + 1];
        return true;
    }
};

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

// What a code is computed from: gr_clamp(v, bound) where a bound clips, else v itself. Without clipping (bound +∞)
// the clamp would only make a NaN the canonical one, and every NaN gets code 0 alike, so the codes are the same;
// the test is the same for a whole bucket, so a warp does not diverge on it.
__device__ __forceinline__ float gr_clamp_if(float v, float bound) {
    return bound == __int_as_float(0x7F800000) ? v : gr_clamp(v, bound);
}

// The norm of a bucket's `len` values and their clipping bound (+∞ without clipping; the kernel arguments have no
// double, so clipSigmas comes as a float, exact for TernGrad's 2.5): the L2 norm (linf = 0) or the largest
// magnitude (LevelQuantizer.Norm.of) of the values clamped to the bound, computed by a block of GR_CHAINS threads,
// thread j folding values j, j + 128, … in order (its chain):
//   - the bound (TernGrad.clipBound): clipSigmas standard deviations, the mean and the squared deviations each summed
//     in ChainSums' chains and tree;
//   - L2: the squares (of the clamped values where the bound is finite) in the same chains and tree;
//   - L∞: the largest magnitude, a maximum whose order does not matter: sign-cleared bit patterns where unclipped,
//     the clamped values' magnitudes in double (a NaN wins, as Math.max) where clipped.
// Every thread of the block calls it and gets the norm (not yet canonical) and the bound; sums and largest are the
// block's shared GR_CHAINS doubles and ints, which may be written again when it returns. chain(acc, step) folds the
// thread's chain of the bucket (values j, j + GR_CHAINS, … below len, in that order) by step, from acc:
// gr_chain_fold of x (gr_bucket_norm) or of the thread's own registers (gr_fused_encode).
template <class Chain>
__device__ __forceinline__ float gr_bucket_norm_by(Chain chain, int len, int linf, float clipSigmas, double* sums,
                                                   int* largest, float* boundOut) {
    int j = threadIdx.x;
    float bound = __int_as_float(0x7F800000);
    if (clipSigmas != 0) {
        sums[j] = chain(0.0, [](double acc, float v) { return __dadd_rn(acc, (double) v); });
        double mean = gr_chain_sum(sums) / (double) len;
        sums[j] = chain(0.0, [&](double acc, float v) {
            double d = __dsub_rn((double) v, mean);
            return __dadd_rn(acc, __dmul_rn(d, d));
        });
        double squares = gr_chain_sum(sums);
        bound = (float) __dmul_rn((double) clipSigmas, sqrt(squares / (double) len));
    }
    *boundOut = bound;
    bool clipped = bound != __int_as_float(0x7F800000);
    float norm;
    if (linf && !clipped) {
        largest[j] = chain(0, [](int m, float v) {
            return max(m, __float_as_int(v) & 0x7FFFFFFF);
        });
        __syncthreads();
        for (int h = GR_CHAINS / 2; h > 0; h >>= 1) {
            if (j < h) {
                largest[j] = max(largest[j], largest[j + h]);
            }
            __syncthreads();
        }
        norm = __int_as_float(largest[0]);
    } else if (linf) {
        sums[j] = chain(0.0, [&](double acc, float v) {
            double m = (double) fabsf(gr_clamp(v, bound));
            return acc != acc || m != m ? (double) __int_as_float(0x7FC00000) : (m > acc ? m : acc);
        });
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
        sums[j] = chain(0.0, [&](double acc, float v) {
            double y = clipped ? (double) gr_clamp(v, bound) : (double) v;
            return __dadd_rn(acc, __dmul_rn(y, y));
        });
        norm = (float) sqrt(gr_chain_sum(sums));
    }
    __syncthreads();
    return norm;
}

// gr_bucket_norm_by of the `len` values at x (a bucket of g).
__device__ __forceinline__ float gr_bucket_norm(const float* x, int len, int linf, float clipSigmas, double* sums,
                                                int* largest, float* boundOut) {
    return gr_bucket_norm_by([&](auto acc, auto step) { return gr_chain_fold(x, 0, len, acc, step); }, len, linf,
                             clipSigmas, sums, largest, boundOut);
}

// norms[k] of bucket k = [starts[k], starts[k + 1]) of g and its clipping bound bounds[k] (gr_bucket_norm), one
// block of GR_CHAINS threads a bucket.
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_level_norms(const float* g, const int* starts,
                                                                      int buckets, int linf, float clipSigmas,
                                                                      float* bounds, float* norms) {
    __shared__ double sums[GR_CHAINS];
    __shared__ int largest[GR_CHAINS];
    for (int k = blockIdx.x; k < buckets; k += gridDim.x) {
        int from = starts[k];
        float bound;
        float norm = gr_bucket_norm(g + from, starts[k + 1] - from, linf, clipSigmas, sums, largest, &bound);
        if (threadIdx.x == 0) {
            bounds[k] = bound;
            norms[k] = gr_canonical(norm);
        }
    }
}

// The words of the codes a block writes at a time, one tile: 256 words, 8,192 bits, at most 8,192 codes (1 bit) and
// one more where a code straddles the tile's end.
#define GR_CODE_TILE 256

// The 16-bit uniform of value e from its draw (Uniform16): bits 48 − 16·(e mod 4) of draw first + e/4.
__device__ __forceinline__ long long gr_uniform16(unsigned long long draw, long long e) {
    return (long long) ((draw >> (48 - 16 * (e & 3))) & 0xFFFFULL);
}

// The codes of n values, `bits` (1 to 8) each, as words (gr_code_word), a tile of GR_CODE_TILE words a block at a
// time. First each thread computes the codes of the tile's values into shared memory, four at a time: the values
// 4q to 4q + 3 of a quad q share draw first + q, so the draw is made once for them, and the four are read with one
// 16-byte load where g allows (a warp's loads then cover 512 contiguous bytes). A thread's quads are q, q + blockDim.x,
// …; the bucket of its first value is found by a search of the tile's buckets, the later ones by following the
// bucket starts forward, their shared values (`bucket(k)`) made once a bucket. Then each word gathers its codes from
// there. A code that straddles two tiles is computed by both blocks, alike, and no thread writes another's word, so
// the bits do not depend on the schedule. code(b, v, u) gives the code of value v with uniform u in bucket b.
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
        GrBucketWalk walk;
        Bucket b;
        for (long long q = (from >> 2) + threadIdx.x; q <= to >> 2; q += blockDim.x) {
            long long e0 = 4 * q;
            float v[4];
            if (e0 >= from && e0 + 3 <= to && (((unsigned long long) (g + e0)) & 15ULL) == 0) {
                float4 quad = *reinterpret_cast<const float4*>(g + e0);
                v[0] = quad.x;
                v[1] = quad.y;
                v[2] = quad.z;
                v[3] = quad.w;
            } else {
                for (int u = 0; u < 4; u++) {
                    v[u] = e0 + u >= from && e0 + u <= to ? g[e0 + u] : 0.0f;
                }
            }
            unsigned long long draw = gr_draw(key, (unsigned long long) (first + q));
            for (int u = 0; u < 4; u++) {
                long long e = e0 + u;
                if (e < from || e > to) {
                    continue;
                }
                if (walk.moved(starts, tileBuckets, e)) {
                    b = bucket(walk.k);
                }
                codes[e - from] = (unsigned char) code(b, v[u], gr_uniform16(draw, e));
            }
        }
        __syncthreads();
        long long end = min(wordCount, (tile + 1) * GR_CODE_TILE);
        for (long long w = tile * GR_CODE_TILE + threadIdx.x; w < end; w += blockDim.x) {
            words[w] = gr_code_word(w, n, bits, [&](long long e) { return (unsigned) codes[e - from]; });
        }
        __syncthreads();
    }
}

// The most values of a bucket the fused encode takes: the block's shared copy of its bucket, 32 KiB.
#define GR_FUSED_BUCKET 8192

// The codes of a warp's 32 consecutive values (lane l's code c at bits [l·bits, l·bits + bits) of their `bits`
// words, the first value's code starting on a word) as words: lane k (k < bits) gets word k. Where a word holds a whole
// number of codes (bits 1, 2, 4, 8) each aligned run of 32 / bits lanes ORs its shifted codes together and its first
// lane hands the word to lane k; otherwise every word is an OR over the warp of each lane's part of it. Every lane
// of the warp must call it.
__device__ __forceinline__ unsigned gr_warp_words(unsigned c, int bits) {
    int lane = threadIdx.x & 31;
    if (32 % bits == 0) {
        int per = 32 / bits;
        unsigned part = c << ((lane & (per - 1)) * bits);
        for (int m = 1; m < per; m <<= 1) {
            part |= __shfl_xor_sync(0xFFFFFFFFu, part, m);
        }
        return __shfl_sync(0xFFFFFFFFu, part, (lane < bits ? lane : 0) * per);
    }
    unsigned mine = 0;
    for (int k = 0; k < bits; k++) {
        int low = lane * bits - 32 * k;
        unsigned part = low >= 32 || low + bits <= 0 ? 0u : (low >= 0 ? c << low : c >> -low);
        for (int m = 16; m > 0; m >>= 1) {
            part |= __shfl_xor_sync(0xFFFFFFFFu, part, m);
        }
        mine = lane == k ? part : mine;
    }
    return mine;
}

// The whole encode of buckets whose codes start on word boundaries (starts[k]·bits a multiple of 32 for every k,
// each bucket at most GR_FUSED_BUCKET values), one block of GR_CHAINS threads a bucket, the bucket read once from
// the gradient into shared memory (16-byte loads where g allows, four of a thread's in flight at a time):
//   - the norm and bound from there (gr_bucket_norm_by, ChainSums' order: thread j folds values j, j + 128, …);
//   - the codes a group of 128 values at a time, warp w taking groups w, w + 4, …: pass s of a group codes its values
//     32s to 32s + 31, so a warp's pass makes `bits` whole words (gr_warp_words), written by its first `bits` lanes;
//   - value e takes its uniform from the draw of quad e/4, shared by 4 lanes: lane l draws quad l of the group (four
//     passes' worth) and the lanes take theirs by a shuffle.
// The loops stay loops: a kernel unrolled over a bucket held in registers was tens of thousands of instructions and
// held four blocks a multiprocessor. bucket(norm, bound) gives what the bucket's values share; code as
// gr_tiled_codes'.
template <class MakeBucket, class Code>
__device__ __forceinline__ void gr_fused_encode(const float* g, long long n, const int* starts, int buckets,
                                                int linf, float clipSigmas, float* bounds, float* norms, int bits,
                                                unsigned long long key, long long first, unsigned* words,
                                                MakeBucket bucket, Code code) {
    alignas(16) __shared__ float values[GR_FUSED_BUCKET];
    __shared__ double sums[GR_CHAINS];
    __shared__ int largest[GR_CHAINS];
    int t = threadIdx.x;
    int lane = t & 31;
    int warp = t >> 5;
    for (int k = blockIdx.x; k < buckets; k += gridDim.x) {
        long long from = starts[k];
        int len = starts[k + 1] - starts[k];
        const float* x = g + from;
        // from is a multiple of 4 (of 32 / gcd(bits, 32)), so the bucket's quads are whole and value e's uniform
        // sits at e mod 4 = lane mod 4 of its draw; its first value is 16-byte aligned where g is
        if ((((unsigned long long) x) & 15ULL) == 0) {
            int quads = len >> 2;
            gr_for_ahead<4>(t, quads, GR_CHAINS, [&](long long q) { return reinterpret_cast<const float4*>(x)[q]; },
                            [&](long long q, float4 quad) { reinterpret_cast<float4*>(values)[q] = quad; });
            for (int e = 4 * quads + t; e < len; e += GR_CHAINS) {
                values[e] = x[e];
            }
        } else {
            gr_for_ahead<8>(t, len, GR_CHAINS, [&](long long e) { return x[e]; },
                            [&](long long e, float v) { values[e] = v; });
        }
        __syncthreads();
        float bound;
        float norm = gr_canonical(gr_bucket_norm(values, len, linf, clipSigmas, sums, largest, &bound));
        if (t == 0) {
            bounds[k] = bound;
            norms[k] = norm;
        }
        auto b = bucket(norm, bound);
        unsigned long long quads = (unsigned long long) (first + (from >> 2));
        long long firstWord = from * bits / 32;
        long long endWord = ((long long) starts[k + 1] * bits + 31) / 32;
        for (int group = warp; 128 * group < len; group += GR_CHAINS / 32) {
            unsigned long long mine = gr_draw(key, quads + 32ULL * group + lane);
#pragma unroll
            for (int s = 0; s < 4; s++) {
                unsigned long long draw = __shfl_sync(0xFFFFFFFFu, mine, 8 * s + (lane >> 2));
                int e = 128 * group + 32 * s + lane;
                unsigned c = e < len ? (unsigned) code(b, values[e], gr_uniform16(draw, from + e)) : 0u;
                unsigned word = gr_warp_words(c, bits);
                long long w = firstWord + (4LL * group + s) * bits + lane;
                if (lane < bits && w < endWord) {
                    words[w] = word;
                }
            }
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
    float t = __fadd_rn(__fmul_rn(gr_clamp_if(v, b.bound), b.ratio), b.half);
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
    double r = __dmul_rn((double) gr_clamp_if(v, b.bound), b.inverse);
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

// The fused encode (gr_fused_encode) on uniform levels (gr_uniform_code).
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_level_uniform_fused(
        const float* g, long long n, const int* starts, int buckets, int linf, float clipSigmas, float* bounds,
        float* norms, int bits, int top, unsigned long long key, long long first, unsigned* words) {
    gr_fused_encode(g, n, starts, buckets, linf, clipSigmas, bounds, norms, bits, key, first, words,
        [&](float norm, float bound) { return gr_uniform_bucket(&norm, &bound, top, 0); },
        [&](const GrUniformBucket& b, float v, long long u) { return gr_uniform_code(b, top, v, u); });
}

// The fused encode (gr_fused_encode) for any sorted levels (gr_search_code).
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_level_search_fused(
        const float* g, long long n, const int* starts, int buckets, int linf, float clipSigmas, float* bounds,
        float* norms, int bits, const double* levels, int top, const double* inverseGap, const int* below,
        const int* above, int cells, unsigned long long key, long long first, unsigned* words) {
    gr_fused_encode(g, n, starts, buckets, linf, clipSigmas, bounds, norms, bits, key, first, words,
        [&](float norm, float bound) { return gr_search_bucket(&norm, &bound, 0); },
        [&](const GrSearchBucket& b, float v, long long u) {
            return gr_search_code(b, v, u, levels, top, inverseGap, below, above, cells);
        });
}

// Level index j of a bucket with norm `scale` decoded (LevelQuantizer.decode): (float) (scale·levels[j]) in double, an
// index past the `count` levels NaN, every index of a zero norm 0 and of a non-finite norm NaN.
__device__ __forceinline__ float gr_level_value(const double* levels, int count, float scale, int j) {
    if (scale == 0.0f) {
        return 0.0f;
    }
    if (!(fabsf(scale) <= 3.4028235e38f) || j >= count) {
        return __int_as_float(0x7FC00000);
    }
    return (float) __dmul_rn((double) scale, levels[j]);
}

// The threads of a block of gr_level_decode_mean, and the values each decodes at a time, as four quads of four
// consecutive values: a tile of 4,096.
#define GR_DECODE_THREADS 256
#define GR_DECODE_QUADS 4
#define GR_DECODE_TILE (GR_DECODE_THREADS * GR_DECODE_QUADS * 4)
// The most level indices a code holds (8 bits).
#define GR_DECODE_CODES 256

// What gr_level_decode_mean reads of a quad of values before it decodes them: the words that hold their index bits
// (the second only where the quad's indices straddle two words; else 0, and nothing is read past the stream) and
// the mean so far.
struct GrDecodeQuad {
    unsigned low;
    unsigned high;
    float before[4];
};

// Worker `worker`'s decoded payload added to the mean of `workers` gradients in `mean` (SimulatedCollective.addToMean
// after LevelQuantizer.decode): worker 0 writes, the others add in order, the last multiplies by `inverse`
// (1f/workers). A block decodes GR_DECODE_TILE values at a time, thread t the quads t, t + 256, … of the tile
// (a warp's 16-byte loads and stores of the mean cover 512 contiguous bytes where mean allows): it loads all its
// quads' index words and means first, so that they are in flight while the block finds its buckets
// (gr_block_buckets) and each thread walks them (GrBucketWalk) to its values' norms. The levels are read from the
// block's shared copy (an index past the GR_DECODE_CODES a code can hold is past `count` too).
extern "C" __global__ void __launch_bounds__(GR_DECODE_THREADS) gr_level_decode_mean(
        const unsigned char* payload, long long n, const int* starts, int buckets, int bits, const double* levels,
        int count, int worker, int workers, float inverse, float* mean) {
    __shared__ int tileBuckets[2];
    __shared__ double levelCopy[GR_DECODE_CODES];
    for (int j = threadIdx.x; j < min(count, GR_DECODE_CODES); j += blockDim.x) {
        levelCopy[j] = levels[j];
    }
    __syncthreads();
    const float* norms = (const float*) payload;
    const unsigned* stream = (const unsigned*) (payload + 4LL * buckets);
    bool vectors = (((unsigned long long) mean) & 15ULL) == 0;
    unsigned mask = (unsigned) ((1ULL << bits) - 1ULL);
    for (long long base = (long long) blockIdx.x * GR_DECODE_TILE; base < n;
         base += (long long) gridDim.x * GR_DECODE_TILE) {
        long long end = min(base + GR_DECODE_TILE, n);
        GrDecodeQuad reads[GR_DECODE_QUADS];
#pragma unroll
        for (int u = 0; u < GR_DECODE_QUADS; u++) {
            long long e0 = base + 4LL * (threadIdx.x + GR_DECODE_THREADS * u);
            if (e0 < end) {
                int values = (int) min(4LL, end - e0);
                long long bit = e0 * bits;
                long long w = bit >> 5;
                reads[u].low = stream[w];
                reads[u].high = (int) (bit & 31) + values * bits > 32 ? stream[w + 1] : 0u;
                if (worker == 0) {
                    for (int i = 0; i < 4; i++) {
                        reads[u].before[i] = 0.0f;
                    }
                } else if (vectors && values == 4) {
                    float4 m = *reinterpret_cast<const float4*>(mean + e0);
                    reads[u].before[0] = m.x;
                    reads[u].before[1] = m.y;
                    reads[u].before[2] = m.z;
                    reads[u].before[3] = m.w;
                } else {
                    for (int i = 0; i < 4; i++) {
                        reads[u].before[i] = i < values ? mean[e0 + i] : 0.0f;
                    }
                }
            }
        }
        gr_block_buckets(starts, buckets, base, end - 1, tileBuckets);
        GrBucketWalk walk;
        float scale = 0.0f;
#pragma unroll
        for (int u = 0; u < GR_DECODE_QUADS; u++) {
            long long e0 = base + 4LL * (threadIdx.x + GR_DECODE_THREADS * u);
            if (e0 < end) {
                int values = (int) min(4LL, end - e0);
                int shift = (int) ((e0 * bits) & 31);
                unsigned long long window = (unsigned long long) reads[u].low
                        | (unsigned long long) reads[u].high << 32;
                float out[4];
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    if (i < values) {
                        if (walk.moved(starts, tileBuckets, e0 + i)) {
                            scale = norms[walk.k];
                        }
                        int j = (int) ((unsigned) (window >> (shift + i * bits)) & mask);
                        float v = gr_level_value(levelCopy, count, scale, j);
                        float m = worker == 0 ? v : __fadd_rn(reads[u].before[i], v);
                        out[i] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
                    }
                }
                if (vectors && values == 4) {
                    *reinterpret_cast<float4*>(mean + e0) = make_float4(out[0], out[1], out[2], out[3]);
                } else {
                    for (int i = 0; i < values; i++) {
                        mean[e0 + i] = out[i];
                    }
                }
            }
        }
        __syncthreads();
    }
}
