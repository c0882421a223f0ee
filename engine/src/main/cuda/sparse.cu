// Sparsifiers on the GPU (CudaSparseCodec): top-k's and random-k's payloads, byte for byte what the CPU encoders
// (org.gridrun.engine.compress.TopK and RandomK) write, and their decoding into the workers' mean, to the bit; and
// (CudaThresholdCodec) the counted lists of Threshold and Dgc, with DGC's accumulation and masking, further down.
//
// Top-k ranks a value by the bits of its magnitude, every NaN one above infinity (TopKSelector.key), and keeps the
// k largest, equal keys by lower position first. Selection is a radix select of the k-th largest key, four bits a
// pass from the top (eight passes): gr_topk_digit_counts counts, per block, the keys under the prefix chosen so far
// by their next digit (per-thread counters, then a fixed-order tree sum in shared memory), and gr_topk_pick_digit
// (one block) sums the blocks' counts and descends to the digit holding the k-th key, as the host walks its
// histograms. The selection state lives on the device: {threshold prefix, its mask, keys above it}.
// Compaction: the gradient is cut into contiguous block tiles; gr_topk_tile_counts counts each tile's keys above and
// equal to the threshold, gr_sparse_exclusive_scan turns the tiles' counts into offsets, and gr_topk_compact gives
// each selected value its slot in position order (keys above before it + the kept equal keys before it, at most
// k − above), through a block prefix scan. gr_sparse_pack writes the payload one 32-bit word a thread. No atomics.
#include "gridrun.cuh"

#define GR_SPARSE_THREADS 256
#define GR_DIGIT_BINS 16

// TopKSelector.key: the bits of |v|, every NaN one above infinity.
__device__ __forceinline__ int gr_rank_key(float v) {
    return min(__float_as_int(v) & 0x7FFFFFFF, 0x7F800001);
}

// Per block, how many keys of g under the selection's prefix (state[0], under mask state[1]) have each value of the
// 4-bit digit at `shift`: blockCounts[16·block + digit]. Blocks of GR_SPARSE_THREADS threads, grid-stride, each
// thread loading four values before it counts them (gr_for_ahead); counts are integers, so the order they are added
// in does not matter.
extern "C" __global__ void gr_topk_digit_counts(const float* g, long long n, const int* state, int shift,
                                                int* blockCounts) {
    __shared__ int counts[GR_DIGIT_BINS][GR_SPARSE_THREADS];
    int prefix = state[0];
    int mask = state[1];
    int c[GR_DIGIT_BINS];
    for (int b = 0; b < GR_DIGIT_BINS; b++) {
        c[b] = 0;
    }
    gr_for_ahead<4>((long long) blockIdx.x * blockDim.x + threadIdx.x, n, (long long) blockDim.x * gridDim.x,
        [&](long long e) { return gr_rank_key(g[e]); },
        [&](long long, int key) {
            if ((key & mask) == prefix) {
                int digit = (key >> shift) & (GR_DIGIT_BINS - 1);
                for (int b = 0; b < GR_DIGIT_BINS; b++) {
                    c[b] += digit == b;
                }
            }
        });
    int t = threadIdx.x;
    for (int b = 0; b < GR_DIGIT_BINS; b++) {
        counts[b][t] = c[b];
    }
    __syncthreads();
    for (int stride = GR_SPARSE_THREADS / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            for (int b = 0; b < GR_DIGIT_BINS; b++) {
                counts[b][t] += counts[b][t + stride];
            }
        }
        __syncthreads();
    }
    if (t < GR_DIGIT_BINS) {
        blockCounts[GR_DIGIT_BINS * blockIdx.x + t] = counts[t][0];
    }
}

// One block of GR_SPARSE_THREADS threads: sums the digit counts of `blocks` blocks (thread t takes digit t mod 16 of
// the blocks t / 16, t / 16 + 16, …; then the 16 sums of each digit) and takes the digit at `shift` of the k-th
// largest key, from the top, as TopKSelector walks its histograms: state[0] gains the digit, state[1] its mask,
// state[2] the keys above the new prefix.
#define GR_PICK_GROUPS (GR_SPARSE_THREADS / GR_DIGIT_BINS)
extern "C" __global__ void gr_topk_pick_digit(const int* blockCounts, int blocks, int shift, int k, int* state) {
    __shared__ int partial[GR_PICK_GROUPS][GR_DIGIT_BINS];
    __shared__ int bins[GR_DIGIT_BINS];
    int t = threadIdx.x;
    int bin = t % GR_DIGIT_BINS;
    int group = t / GR_DIGIT_BINS;
    int sum = 0;
    for (int b = group; b < blocks; b += GR_PICK_GROUPS) {
        sum += blockCounts[GR_DIGIT_BINS * b + bin];
    }
    partial[group][bin] = sum;
    __syncthreads();
    if (t < GR_DIGIT_BINS) {
        int total = 0;
        for (int h = 0; h < GR_PICK_GROUPS; h++) {
            total += partial[h][t];
        }
        bins[t] = total;
    }
    __syncthreads();
    if (t == 0) {
        int above = state[2];
        int digit = GR_DIGIT_BINS - 1;
        while (digit > 0 && above + bins[digit] < k) {
            above += bins[digit--];
        }
        state[0] |= (int) ((unsigned) digit << shift);
        state[1] |= (int) ((unsigned) (GR_DIGIT_BINS - 1) << shift);
        state[2] = above;
    }
}

// The keys of [from, to) above the threshold and equal to it.
__device__ __forceinline__ void gr_count_against(const float* g, long long from, long long to, int threshold,
                                                 int* above, int* equal) {
    int a = 0;
    int q = 0;
    for (long long e = from; e < to; e++) {
        int key = gr_rank_key(g[e]);
        a += key > threshold;
        q += key == threshold;
    }
    *above = a;
    *equal = q;
}

// Per tile (block) of GR_SPARSE_THREADS·chunk values: the keys above the selected threshold (state[0]) in
// tileAbove[block], those equal to it in tileEqual[block].
extern "C" __global__ void gr_topk_tile_counts(const float* g, long long n, int chunk, const int* state,
                                               int* tileAbove, int* tileEqual) {
    __shared__ int scan[GR_SPARSE_THREADS];
    long long from;
    long long to;
    gr_thread_chunk(n, chunk, &from, &to);
    int a;
    int q;
    gr_count_against(g, from, to, state[0], &a, &q);
    int aBefore = gr_block_exclusive_sum(a, scan);
    int qBefore = gr_block_exclusive_sum(q, scan);
    if (threadIdx.x == blockDim.x - 1) {
        tileAbove[blockIdx.x] = aBefore + a;
        tileEqual[blockIdx.x] = qBefore + q;
    }
}

// counts[0 … count) replaced by their exclusive prefix sums, by one block of GR_SPARSE_THREADS threads: each sums a
// contiguous run, the runs' sums are scanned, and each thread rewrites its run.
extern "C" __global__ void gr_sparse_exclusive_scan(int* counts, int count) {
    __shared__ int scan[GR_SPARSE_THREADS];
    int run = (count + GR_SPARSE_THREADS - 1) / GR_SPARSE_THREADS;
    int from = min(count, (int) threadIdx.x * run);
    int to = min(count, from + run);
    int sum = 0;
    for (int i = from; i < to; i++) {
        sum += counts[i];
    }
    int before = gr_block_exclusive_sum(sum, scan);
    for (int i = from; i < to; i++) {
        int c = counts[i];
        counts[i] = before;
        before += c;
    }
}

// Each selected value's position and value bits (a NaN as the canonical one) at its slot of the list: a key above
// the threshold, or one of the first k − above (state[2]) keys equal to it in position order. Slot = keys above
// before it + min(equal keys before it, k − above), the tiles' offsets (gr_sparse_exclusive_scan) plus a block scan
// of the threads' counts.
extern "C" __global__ void gr_topk_compact(const float* g, long long n, int chunk, const int* state, int k,
                                           const int* aboveOffsets, const int* equalOffsets, int* positions,
                                           unsigned* values) {
    __shared__ int scan[GR_SPARSE_THREADS];
    int threshold = state[0];
    int ties = k - state[2];
    long long from;
    long long to;
    gr_thread_chunk(n, chunk, &from, &to);
    int a;
    int q;
    gr_count_against(g, from, to, threshold, &a, &q);
    int above = aboveOffsets[blockIdx.x] + gr_block_exclusive_sum(a, scan);
    int equal = equalOffsets[blockIdx.x] + gr_block_exclusive_sum(q, scan);
    for (long long e = from; e < to; e++) {
        float v = g[e];
        int key = gr_rank_key(v);
        int slot = -1;
        if (key > threshold) {
            slot = above + min(equal, ties);
            above++;
        } else if (key == threshold) {
            slot = equal < ties ? above + equal : -1;
            equal++;
        }
        if (slot >= 0) {
            positions[slot] = (int) e;
            values[slot] = __float_as_uint(gr_canonical(v));
        }
    }
}

// Threshold's and DGC's counted lists (ThresholdFormat): a value is sent when its key is at least the least key
// sent, gr_least_sent: the selection's threshold (state[0], written by the host for threshold, by the radix select
// of the sample for DGC, where a NaN threshold sends everything) but at least `lowest` (1 for DGC: no zeros).
// gr_threshold_tile_counts counts each tile's sent values, gr_sparse_exclusive_scan turns the counts (and a zero
// past the last tile, which becomes the count k) into offsets, gr_threshold_compact lists each sent value at its
// offset in position order, gr_counted_pack writes the count, the positions and the values.
#define GR_NAN_KEY 0x7F800001

__device__ __forceinline__ int gr_least_sent(const int* state, int lowest) {
    int t = state[0];
    return max(t == GR_NAN_KEY ? 0 : t, lowest);
}

// The values of [from, to) whose keys are at least `least`.
__device__ __forceinline__ int gr_count_sent(const float* g, long long from, long long to, int least) {
    int c = 0;
    for (long long e = from; e < to; e++) {
        c += gr_rank_key(g[e]) >= least;
    }
    return c;
}

// Per tile (block) of GR_SPARSE_THREADS·chunk values: how many are sent, in tileCounts[block].
extern "C" __global__ void gr_threshold_tile_counts(const float* g, long long n, int chunk, const int* state,
                                                    int lowest, int* tileCounts) {
    __shared__ int scan[GR_SPARSE_THREADS];
    long long from;
    long long to;
    gr_thread_chunk(n, chunk, &from, &to);
    int c = gr_count_sent(g, from, to, gr_least_sent(state, lowest));
    int before = gr_block_exclusive_sum(c, scan);
    if (threadIdx.x == blockDim.x - 1) {
        tileCounts[blockIdx.x] = before + c;
    }
}

// Each sent value's position and value bits (a NaN as the canonical one) at its slot of the list: the tile's offset
// plus the values sent before it in the tile (a block scan of the threads' counts, then the thread's own in order).
extern "C" __global__ void gr_threshold_compact(const float* g, long long n, int chunk, const int* state, int lowest,
                                                const int* offsets, int* positions, unsigned* values) {
    __shared__ int scan[GR_SPARSE_THREADS];
    int least = gr_least_sent(state, lowest);
    long long from;
    long long to;
    gr_thread_chunk(n, chunk, &from, &to);
    int slot = offsets[blockIdx.x] + gr_block_exclusive_sum(gr_count_sent(g, from, to, least), scan);
    for (long long e = from; e < to; e++) {
        float v = g[e];
        if (gr_rank_key(v) >= least) {
            positions[slot] = (int) e;
            values[slot] = __float_as_uint(gr_canonical(v));
            slot++;
        }
    }
}

// Word w of a counted list: the count *count in countWidth bits, its positions, `width` bits each, then their values'
// 32 bits, LSB first (Threshold.encode); words past the payload are left as they are. Thread 0 writes the payload's
// bits to *bits. One thread per word of the largest payload.
extern "C" __global__ void gr_counted_pack(const int* positions, const unsigned* values, const int* count,
                                           int countWidth, int width, unsigned* words, long long wordCount,
                                           long long* bits) {
    long long k = *count;
    long long total = countWidth + k * (width + 32);
    long long used = (total + 31) / 32;
    GR_FOR_EACH(w, used < wordCount ? used : wordCount) {
        long long low = 32 * w - countWidth;
        words[w] = (w == 0 ? (unsigned) k : 0u) | gr_stream_word(low, k, width, [&](long long j) {
            return (unsigned) positions[j];
        }) | gr_stream_word(low - k * width, k, 32, [&](long long j) { return values[j]; });
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *bits = total;
    }
}

// Word w of a list payload: the k positions, `width` bits each, then the k values' 32 bits, LSB first, zero past
// the end (SparseFormat.write). One thread per word.
extern "C" __global__ void gr_sparse_pack(const int* positions, const unsigned* values, long long k, int width,
                                          unsigned* words, long long wordCount) {
    long long valuesAt = k * width;
    GR_FOR_EACH(w, wordCount) {
        words[w] = gr_stream_word(32 * w, k, width, [&](long long j) { return (unsigned) positions[j]; })
                   | gr_stream_word(32 * w - valuesAt, k, 32, [&](long long j) { return values[j]; });
    }
}

// Random-k's payload: value j is g[positions[j]]·scale as float32, a NaN as the canonical one (RandomK.encode). One
// thread per value.
extern "C" __global__ void gr_shared_positions_encode(const float* g, const int* positions, long long k, float scale,
                                                      float* payload) {
    GR_FOR_EACH(j, k) {
        payload[j] = gr_canonical(__fmul_rn(g[positions[j]], scale));
    }
}

// DGC's momentum correction and local accumulation (Dgc.encode): u ← momentum·u + g, v ← v + u, each operation
// rounded to float as Java's. One thread per value.
extern "C" __global__ void gr_dgc_accumulate(const float* g, long long n, float momentum, float* u, float* v) {
    GR_FOR_EACH(e, n) {
        float corrected = __fadd_rn(__fmul_rn(momentum, u[e]), g[e]);
        u[e] = corrected;
        v[e] = __fadd_rn(v[e], corrected);
    }
}

// DGC's masking after the send: u and v zeroed at the *count positions listed. Threads for up to n; those past the
// count do nothing. Positions are distinct, so no two threads write one value.
extern "C" __global__ void gr_dgc_mask(const int* positions, const int* count, long long n, float* u, float* v) {
    long long k = *count;
    GR_FOR_EACH(j, k < n ? k : n) {
        u[positions[j]] = 0.0f;
        v[positions[j]] = 0.0f;
    }
}

// DGC's sample: magnitude j is |g[positions[j]]| (Dgc.sampledThreshold), which the radix select then ranks.
extern "C" __global__ void gr_sample_magnitudes(const float* g, const int* positions, long long s, float* out) {
    GR_FOR_EACH(j, s) {
        out[j] = fabsf(g[positions[j]]);
    }
}

// `width` bits (1 to 32) of `stream` from bit `bit` on, LSB first.
__device__ __forceinline__ unsigned gr_read_bits(const unsigned char* stream, long long bit, int width) {
    long long at = bit >> 3;
    int shift = (int) (bit & 7);
    int bytes = (shift + width + 7) >> 3;
    unsigned long long window = 0;
    for (int i = 0; i < bytes; i++) {
        window |= (unsigned long long) stream[at + i] << (8 * i);
    }
    return (unsigned) ((window >> shift) & ((1ULL << width) - 1ULL));
}

// Entry j of a list into the zeroed `dense` (SparseFormat.read): its position, `width` bits at bit
// positionsAt + j·width of `positions`, gets the 32 bits at bit valuesAt + 32j of `values`. Positions are distinct,
// so no two threads write one value.
__device__ __forceinline__ void gr_scatter_entry(const unsigned char* positions, long long positionsAt, int width,
                                                 const unsigned char* values, long long valuesAt, long long j,
                                                 long long n, unsigned* dense) {
    long long e = gr_read_bits(positions, positionsAt + j * width, width);
    if (e < n) {
        dense[e] = gr_read_bits(values, valuesAt + 32 * j, 32);
    }
}

// A list of k entries, positions from bit 0 of `positions`, into the zeroed `dense`. One thread per entry.
extern "C" __global__ void gr_sparse_scatter(const unsigned char* positions, int width, const unsigned char* values,
                                             long long valuesAt, long long k, long long n, unsigned* dense) {
    GR_FOR_EACH(j, k) {
        gr_scatter_entry(positions, 0, width, values, valuesAt, j, n, dense);
    }
}

// A counted list (ThresholdFormat) into the zeroed `dense`: its count in the first countWidth bits, then the list.
// Threads for up to n entries; those past the count do nothing.
extern "C" __global__ void gr_counted_scatter(const unsigned char* payload, int countWidth, int width, long long n,
                                              unsigned* dense) {
    long long k = gr_read_bits(payload, 0, countWidth);
    GR_FOR_EACH(j, k < n ? k : n) {
        gr_scatter_entry(payload, countWidth, width, payload, countWidth + k * width, j, n, dense);
    }
}
