// gridrun's CUDA kernels: what every kernel source includes.
//
// The same sources are compiled two ways: by nvcc to PTX (scripts/build-ptx.sh, committed under
// engine/src/main/resources/org/gridrun/engine/backend/cuda/), and by g++ for the tests' emulator, which runs every
// thread of a block as a fiber on the host so that the backend and its kernels are checked without a GPU. Kernels
// therefore keep to what both understand:
//   - a kernel is `extern "C" __global__ void gr_<name>(...)`, its parameters pointers, int, unsigned, float,
//     long long or unsigned long long (the launcher's KernelArgs kinds: address, i32, f32, i64);
//   - shared memory is static (`__shared__ float tile[64][65];`), never `extern __shared__`;
//   - no atomics (sums have a fixed order: results are the same bits run to run), no inline PTX, no textures;
//   - barriers are __syncthreads(), reached by every thread of the block that has not returned, or __syncwarp()
//     reached by every lane of the warp; warp shuffles (__shfl_sync, __shfl_down_sync, __shfl_xor_sync) and
//     __ballot_sync, with the full mask, only in blocks of whole warps, all lanes taking part;
//   - device math from this list: expf logf sqrtf rsqrtf fabsf fmaxf fminf fmaf floorf exp log sqrt fabs fmax fmin
//     fma floor scalbn, min and max on ints, __popc __clz, __float_as_uint __uint_as_float __float_as_int
//     __int_as_float __double_as_longlong __longlong_as_double, __ldg, the rounded __fadd_rn __fsub_rn __fmul_rn
//     __fdiv_rn __fsqrt_rn __fmaf_rn __dadd_rn __dsub_rn __dmul_rn (no FMA contraction), float2/float4 and
//     make_float2/make_float4 (16-byte accesses must be 16-byte aligned, as on the GPU);
//   - an FMA only where written (fmaf, fma, __fmaf_rn): the PTX is built with --fmad=false, the emulator with
//     -ffp-contract=off, so a * b + c is two roundings on both.
#pragma once

#ifndef GRIDRUN_EMULATED
#include <stdint.h>
#endif

// The SplitMix64 finaliser, the mixing function of org.gridrun.engine.random.CounterRng.
__device__ __forceinline__ unsigned long long gr_mix(unsigned long long z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// The odd constant CounterRng adds per draw.
#define GR_GAMMA 0x9E3779B97F4A7C15ULL

// Draw `position` of CounterRng(seed, stream): CounterRng.at(position).
__device__ __forceinline__ unsigned long long gr_draw(unsigned long long key, unsigned long long position) {
    return gr_mix(key + GR_GAMMA * position);
}

// The key of CounterRng(seed, stream): mix(mix(seed) + GAMMA·(stream + 1)) | 1.
__device__ __forceinline__ unsigned long long gr_key(long long seed, long long stream) {
    return gr_mix(gr_mix((unsigned long long) seed) + GR_GAMMA * ((unsigned long long) stream + 1ULL)) | 1ULL;
}

// A grid-stride loop over [0, n): every index once, however many blocks the launcher chose.
#define GR_FOR_EACH(i, n) \
    for (long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x; i < (long long) (n); \
         i += (long long) blockDim.x * gridDim.x)

// A grid-stride loop over [0, n) a warp an index: every lane of a warp takes the same indices (so a warp may
// __syncwarp inside), a block of blockDim.x / 32 warps.
#define GR_FOR_EACH_WARP(i, n) \
    for (long long i = (long long) blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); i < (long long) (n); \
         i += (long long) gridDim.x * (blockDim.x >> 5))

// use(j, v) for j = 0 … n − 1 in order, on every lane of the warp, with v = load(j): each run of 32 is loaded one
// value a lane (coalesced, and each lane's part computed at once) into the warp's stage of 32, then every lane walks
// the stage in order. So a sum over j runs in the host's order however the loads were spread.
template <class T, class Load, class Use>
__device__ __forceinline__ void gr_warp_walk(T* stage, int n, Load load, Use use) {
    int lane = threadIdx.x & 31;
    for (int c = 0; c < n; c += 32) {
        int m = min(32, n - c);
        if (lane < m) {
            stage[lane] = load(c + lane);
        }
        __syncwarp();
        for (int k = 0; k < m; k++) {
            use(c + k, stage[k]);
        }
        __syncwarp();
    }
}

// A warp's 32 keys sorted across its lanes, lane l getting the l-th smallest (a bitonic network of shuffles);
// every lane of the warp must call it.
__device__ __forceinline__ unsigned gr_warp_sort(unsigned key) {
    int lane = threadIdx.x & 31;
    for (int size = 2; size <= 32; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            unsigned other = __shfl_xor_sync(0xFFFFFFFFu, key, stride);
            bool ascending = (lane & size) == 0;
            bool lower = (lane & stride) == 0;
            key = lower == ascending ? min(key, other) : max(key, other);
        }
    }
    return key;
}

// Bits [lowBit, lowBit + 32) of a stream of n codes of `bits` bits each (1 to 32), least significant bit first, zero
// outside the stream; lowBit may be negative (a stream that starts inside or after the word). code(e) gives code e.
template <class Code>
__device__ __forceinline__ unsigned gr_stream_word(long long lowBit, long long n, int bits, Code code) {
    if (lowBit + 32 <= 0) {
        return 0;
    }
    long long first = lowBit > 0 ? lowBit / bits : 0;
    long long last = (lowBit + 31) / bits;
    if (last > n - 1) {
        last = n - 1;
    }
    unsigned long long word = 0;
    for (long long e = first; e <= last; e++) {
        unsigned long long c = (unsigned long long) code(e) & ((1ULL << bits) - 1ULL);
        long long shift = e * bits - lowBit;
        word |= shift >= 0 ? c << shift : c >> -shift;
    }
    return (unsigned) word;
}

// Java's (long) of a float: NaN gives 0, values beyond the long range saturate (C leaves both undefined).
__device__ __forceinline__ long long gr_java_long(float t) {
    if (t != t) {
        return 0;
    }
    if (t >= 9.2233720e18f) {
        return 0x7FFFFFFFFFFFFFFFLL;
    }
    if (t <= -9.2233720e18f) {
        return (long long) 0x8000000000000000ULL;
    }
    return (long long) t;
}

// The last index of the bracket [lo, hi) of a non-decreasing sequence at(i) whose at(lo) <= v, halved down to one
// (lo itself where at(lo) > v after all); I is the index type, int or long long.
template <class I, class At, class V>
__device__ __forceinline__ I gr_last_at_most_by(I lo, I hi, V v, At at) {
    while (hi - lo > 1) {
        I mid = (lo + hi) >> 1;
        if (at(mid) <= v) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// gr_last_at_most_by of the sorted array a: the last index in [lo, hi) with a[i] <= v, given a[lo] <= v.
template <class T, class V>
__device__ __forceinline__ int gr_last_at_most(const T* a, int lo, int hi, V v) {
    return gr_last_at_most_by(lo, hi, v, [&](int i) { return a[i]; });
}

// Bits [at, at + width) of a payload of 32-bit words, least significant bit first (width 1 to 32); the payload must
// have one word of slack after it, which the read may touch.
__device__ __forceinline__ unsigned gr_read_bits(const unsigned* payload, long long at, int width) {
    long long w = at >> 5;
    unsigned long long window = (unsigned long long) payload[w] | (unsigned long long) payload[w + 1] << 32;
    unsigned long long v = window >> (at & 31);
    return (unsigned) (width == 32 ? v : v & ((1ULL << width) - 1ULL));
}

// A NaN as the one canonical NaN (Java's Float.NaN, 0x7FC00000), as the host writes every NaN that arithmetic made:
// which NaN an operation gives is the processor's (x86 keeps an operand's payload, a GPU makes 0x7FFFFFFF).
__device__ __forceinline__ float gr_canonical(float v) {
    return v != v ? __int_as_float(0x7FC00000) : v;
}

// The exclusive prefix sum of v over the block's threads (a Hillis–Steele scan in s, blockDim.x ints); every
// thread of the block must call it.
__device__ __forceinline__ int gr_block_exclusive_sum(int v, int* s) {
    int t = threadIdx.x;
    s[t] = v;
    __syncthreads();
    for (int d = 1; d < (int) blockDim.x; d <<= 1) {
        int add = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    int inclusive = s[t];
    __syncthreads();
    return inclusive - v;
}

// The values thread threadIdx.x of block blockIdx.x owns: `chunk` consecutive ones of its block's tile.
__device__ __forceinline__ void gr_thread_chunk(long long n, int chunk, long long* from, long long* to) {
    long long start = ((long long) blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    *from = start < n ? start : n;
    *to = start + chunk < n ? start + chunk : n;
}

// The chains of org.gridrun.engine.compress.ChainSums: one per thread of a block of GR_CHAINS.
#define GR_CHAINS 128

// use(i, load(i)) for i = first, first + stride, … below `end`, in that order, with the loads of AHEAD values made
// before any of them is used: a use waits for its load, and a load queued after that use would wait too, so a loop
// that loads one value at a time keeps one load a warp in flight and is bound by the memory's latency, not its
// bandwidth. A use may write what its own load read, not what a later load reads.
template <int AHEAD, class Load, class Use>
__device__ __forceinline__ void gr_for_ahead(long long first, long long end, long long stride, Load load, Use use) {
    long long i = first;
    for (; i < end - (AHEAD - 1) * stride; i += AHEAD * stride) {
        decltype(load(i)) v[AHEAD];
        for (int u = 0; u < AHEAD; u++) {
            v[u] = load(i + u * stride);
        }
        for (int u = 0; u < AHEAD; u++) {
            use(i + u * stride, v[u]);
        }
    }
    for (; i < end; i += stride) {
        use(i, load(i));
    }
}

// Thread j's chain of the values x[from + j], x[from + j + GR_CHAINS], … below `to`, folded in that order by
// step(acc, value): the order of ChainSums' chain j, eight loads ahead (gr_for_ahead).
template <class X, class T, class Step>
__device__ __forceinline__ T gr_chain_fold(const X* x, long long from, long long to, T acc, Step step) {
    gr_for_ahead<8>(from + threadIdx.x, to, GR_CHAINS, [&](long long i) { return x[i]; },
                    [&](long long, X v) { acc = step(acc, v); });
    return acc;
}

// The chains in `sums` (shared, GR_CHAINS doubles, chain j = thread j's) summed in ChainSums' tree (chain j takes
// chain j + h for h = 64, …, 1); every thread of the block must call it and gets the sum, and `sums` may be written
// again when it returns.
__device__ __forceinline__ double gr_chain_sum(double* sums) {
    int j = threadIdx.x;
    __syncthreads();
    for (int h = GR_CHAINS / 2; h > 0; h >>= 1) {
        if (j < h) {
            sums[j] = __dadd_rn(sums[j], sums[j + h]);
        }
        __syncthreads();
    }
    double sum = sums[0];
    __syncthreads();
    return sum;
}

