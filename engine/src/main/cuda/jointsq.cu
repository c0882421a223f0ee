// JointSQ's payloads on the GPU (CudaJointSqCodec), byte for byte what the CPU encoder
// (org.gridrun.engine.compress.JointSq, allocation: search) writes for the same random stream, and their decoding into
// the workers' mean as the host's collective does.
//
// Per tensor of the layout, in order: the width map (symbols 0..3 for widths 0, 2, 4, 8; a mode bit, then 2 bits a
// symbol, or twelve 13-bit frequencies and the bytes of an order-1 range-ANS coder), the scale of each width group
// that has values (float32), the 2-bit group (three values in 7 bits), the 4-bit and the 8-bit codes, each group in
// position order. Each tensor is cut into chunks of 8192 values (the width map's chunks, numbered one tensor after
// another); sizes depend on the values, so the encode is eleven kernels, none with atomics:
//   gr_jsq_stats      a block per chunk: c = g + e into the residual's place, the largest |c| and the magnitude
//                     histogram (16 bins an octave; each warp sorts its values' bins and counts their runs);
//                     gr_jsq_merge, 16 blocks per tensor, adds the chunks' (integer counts, any order);
//   gr_jsq_plan       a block per tensor (looping): JointSqSearch.plan on the histogram, the (K8, K4) pairs of each
//                     scan evaluated by the block at once and the first best kept, as the host's loops keep it;
//   gr_jsq_quota_counts, gr_jsq_symbols  a block per chunk: the values in the 2-bit group's last bin, then each
//                     value's symbol (that bin's quota counted on from the chunks before, by block scans), the
//                     chunk's symbol counts, transition counts (the context starting with the chunk) and maxima;
//   gr_jsq_frequencies  a thread per tensor: the chunks' counts summed, the group scales and WidthMap's frequencies;
//   gr_jsq_quantize   a block per chunk: each sent value rounded with the uniform of its position, its code put at
//                     its place in its group (the chunks before counted from their symbol counts) and its residual
//                     left;
//   gr_jsq_code       a thread per chunk: the width map's coder, last symbol to first (a chain of dependent steps,
//                     the one serial part); gr_jsq_map_bits, a thread per tensor, sums their bytes;
//   gr_jsq_offsets    one thread: each tensor's first bit, and the payload's bits and side bits;
//   gr_jsq_pack       a thread per 32-bit word: the fields that overlap it, found from the tensors' first bits.
// Decoding: gr_jsq_read_map (a thread per chunk, at the first bits the slot's encode found) decodes the maps;
// gr_jsq_decode_mean (a block per chunk) ranks each value in its group as the encode did and reads its code.
#include "gridrun.cuh"

#define GR_JSQ_THREADS 256
#define GR_JSQ_BINS 4096
#define GR_JSQ_SHIFT 19
#define GR_JSQ_FULL_SEARCH 48
#define GR_JSQ_PRECISION 12
#define GR_JSQ_TOTAL 4096
#define GR_JSQ_LOW (1u << 23)
#define GR_JSQ_CODED_HEADER 157
// A width map's chunk: its symbols, coded on their own (WidthMap.CHUNK), and the bits of its byte count.
#define GR_JSQ_CHUNK 8192
#define GR_JSQ_LENGTH_BITS 16
#define GR_JSQ_CUTS 8
// Per tensor in `info` (a slot's): what the encode found, 16 long longs.
#define GR_JSQ_INFO 16
#define GR_JSQ_START 0
#define GR_JSQ_BITS 1
#define GR_JSQ_MAP_BITS 2
#define GR_JSQ_CODED 3
#define GR_JSQ_K 5
#define GR_JSQ_SCALE 8
#define GR_JSQ_SIDE 11

// The bits of k 2-bit values: 7 for every three, 3 or 5 for a last one or two (JointSq.packedBits).
__device__ __forceinline__ long long gr_jsq_packed(long long k) {
    long long r = k % 3;
    return 7 * (k / 3) + (r == 0 ? 0 : r == 1 ? 3 : 5);
}

// The most 2-bit values `bits` bits hold (JointSq.mostPacked).
__device__ __forceinline__ long long gr_jsq_most_packed(long long bits) {
    if (bits < 0) {
        return 0;
    }
    long long r = bits % 7;
    return 3 * (bits / 7) + (r >= 5 ? 2 : r >= 3 ? 1 : 0);
}

// The magnitude bin of a value: its exponent and top four mantissa bits (JointSqSearch.bin).
__device__ __forceinline__ int gr_jsq_bin(float v) {
    return (int) ((__float_as_uint(v) & 0x7FFFFFFFu) >> GR_JSQ_SHIFT);
}

__device__ __forceinline__ double gr_jsq_lower_edge(int bin) {
    return (double) __uint_as_float((unsigned) bin << GR_JSQ_SHIFT);
}

// Java's Math.max(0, x) of a double: 0 for −0 and below, NaN kept.
__device__ __forceinline__ double gr_jsq_positive(double x) {
    return x != x ? x : x > 0.0 ? x : 0.0;
}

// The tensor of global chunk g: the last t with chunkStarts[t] <= g.
__device__ __forceinline__ int gr_jsq_tensor_of_chunk(const int* chunkStarts, int tensors, long long g) {
    return gr_last_at_most(chunkStarts, 0, tensors, g);
}

// Chunk g's tensor and values [first, end) (each tensor cut into chunks of GR_JSQ_CHUNK values, numbered one tensor
// after another; a tensor of no values has one empty chunk).
struct GrJsqChunk {
    int t;
    long long first;
    long long end;
};

__device__ __forceinline__ GrJsqChunk gr_jsq_chunk(const int* offsets, const int* chunkStarts, int tensors,
                                                   long long g) {
    GrJsqChunk k;
    k.t = gr_jsq_tensor_of_chunk(chunkStarts, tensors, g);
    k.first = offsets[k.t] + (g - chunkStarts[k.t]) * (long long) GR_JSQ_CHUNK;
    k.end = k.first + GR_JSQ_CHUNK < offsets[k.t + 1] ? k.first + GR_JSQ_CHUNK : offsets[k.t + 1];
    return k;
}

// The sums over the chunks of chunk g's tensor before it of values[stride·g' + i], i < count, into before (thread
// 0 of the block adds them; every thread must call it).
__device__ void gr_jsq_before(const long long* values, int stride, int count, const int* chunkStarts, int t,
                              long long g, long long* before) {
    if (threadIdx.x == 0) {
        for (int i = 0; i < count; i++) {
            before[i] = 0;
        }
        for (long long h = chunkStarts[t]; h < g; h++) {
            for (int i = 0; i < count; i++) {
                before[i] += values[stride * h + i];
            }
        }
    }
    __syncthreads();
}

// Calls visit(i, sym, place) for each value i of [first, end), its symbol and, for a sent one, its place in its
// group: seen[sym] for the first of the range, then on in position order (block scans of three 10-bit fields, one a
// group). Every thread of the block must call it; seen (a thread's own) ends past the range.
template <class Visit>
__device__ void gr_jsq_in_groups(const unsigned char* symbols, long long first, long long end, long long* seen,
                                 int* scan, int* total, Visit visit) {
    int j = threadIdx.x;
    for (long long start = first; start < end; start += GR_JSQ_THREADS) {
        long long i = start + j;
        bool valid = i < end;
        int sym = valid ? symbols[i] : 0;
        int field = sym > 0 ? 1 << (10 * (sym - 1)) : 0;
        int ranks = gr_block_exclusive_sum(field, scan);
        if (j == GR_JSQ_THREADS - 1) {
            total[0] = ranks + field;
        }
        if (valid) {
            visit(i, sym, sym > 0 ? seen[sym] + ((ranks >> (10 * (sym - 1))) & 1023) : 0);
        }
        __syncthreads();
        for (int g = 1; g < 4; g++) {
            seen[g] += (total[0] >> (10 * (g - 1))) & 1023;
        }
        __syncthreads();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics.

// The threads of gr_jsq_stats' block: 4 warps, each counting into a histogram of its own in shared memory.
#define GR_JSQ_STATS_THREADS 128
#define GR_JSQ_STATS_WARPS (GR_JSQ_STATS_THREADS / 32)

// Per chunk (a block each): c = g + e into the residual's place, the chunk's largest |c| (its bits) and its magnitude
// histogram. Each warp takes 32 values at a time, sorts their bins across its lanes and adds each run of equal bins
// at once, by the run's last lane, to the warp's own histogram (no two lanes add to one bin, and no atomics); the
// block then sums the warps' counts (integers: any order gives the same).
extern "C" __global__ void __launch_bounds__(GR_JSQ_STATS_THREADS) gr_jsq_stats(const float* g, float* r,
                                                                                const int* offsets,
                                                                                const int* chunkStarts, int tensors,
                                                                                int* hist, unsigned* linf) {
    __shared__ unsigned short counts[GR_JSQ_STATS_WARPS][GR_JSQ_BINS];
    __shared__ unsigned most[GR_JSQ_STATS_THREADS];
    long long chunk = blockIdx.x;
    GrJsqChunk k = gr_jsq_chunk(offsets, chunkStarts, tensors, chunk);
    int j = threadIdx.x;
    int lane = j & 31;
    int warp = j >> 5;
    for (int b = j; b < GR_JSQ_STATS_WARPS * GR_JSQ_BINS; b += GR_JSQ_STATS_THREADS) {
        counts[b / GR_JSQ_BINS][b % GR_JSQ_BINS] = 0;
    }
    __syncthreads();
    unsigned largest = 0;
    for (long long base = k.first + 32 * warp; base < k.end; base += GR_JSQ_STATS_THREADS) {
        long long i = base + lane;
        unsigned key = 0xFFFFFFFFu;
        if (i < k.end) {
            float c = __fadd_rn(g[i], r[i]);
            r[i] = c;
            unsigned bits = __float_as_uint(c) & 0x7FFFFFFFu;
            largest = max(largest, bits);
            key = bits >> GR_JSQ_SHIFT;
        }
        key = gr_warp_sort(key);
        unsigned before = __shfl_sync(0xFFFFFFFFu, key, lane > 0 ? lane - 1 : 0);
        unsigned after = __shfl_sync(0xFFFFFFFFu, key, lane < 31 ? lane + 1 : 31);
        unsigned starts = __ballot_sync(0xFFFFFFFFu, lane == 0 || before != key);
        // the run's first lane: the last start at or below this lane
        int from = 31 - __clz(starts & (0xFFFFFFFFu >> (31 - lane)));
        if ((lane == 31 || after != key) && key != 0xFFFFFFFFu) {
            counts[warp][key] = (unsigned short) (counts[warp][key] + lane - from + 1);
        }
        // the next 32 values' run of a bin may end at another lane, which must read this addition: a shuffle or a
        // ballot orders no memory between lanes, __syncwarp does (the emulator's race check finds it missing)
        __syncwarp();
    }
    __syncthreads();
    for (int b = j; b < GR_JSQ_BINS; b += GR_JSQ_STATS_THREADS) {
        int sum = 0;
        for (int w = 0; w < GR_JSQ_STATS_WARPS; w++) {
            sum += counts[w][b];
        }
        hist[chunk * GR_JSQ_BINS + b] = sum;
    }
    most[j] = largest;
    __syncthreads();
    for (int half = GR_JSQ_STATS_THREADS / 2; half > 0; half >>= 1) {
        if (j < half) {
            most[j] = max(most[j], most[j + half]);
        }
        __syncthreads();
    }
    if (j == 0) {
        linf[chunk] = most[0];
    }
}

// Per tensor (blockIdx.x) and run of blockDim.x bins (blockIdx.y, GR_JSQ_BINS / blockDim.x of them): its chunks'
// histograms and (the first run's block) largest magnitudes merged, after the chunks' (integer counts and a maximum:
// the same in any order), each thread's bin with eight chunks' loads in flight (gr_for_ahead), as a tensor of 2.4 M
// values has 288 chunks.
extern "C" __global__ void gr_jsq_merge(const int* chunkHist, const unsigned* chunkLinf, const int* chunkStarts,
                                        int* hist, unsigned* linf) {
    int t = blockIdx.x;
    int b = blockIdx.y * blockDim.x + threadIdx.x;
    int sum = 0;
    gr_for_ahead<8>(chunkStarts[t], chunkStarts[t + 1], 1,
                    [&](long long h) { return chunkHist[h * GR_JSQ_BINS + b]; }, [&](long long, int v) { sum += v; });
    hist[(long long) t * GR_JSQ_BINS + b] = sum;
    if (blockIdx.y == 0 && threadIdx.x == 0) {
        unsigned most = 0;
        gr_for_ahead<8>(chunkStarts[t], chunkStarts[t + 1], 1, [&](long long h) { return chunkLinf[h]; },
                        [&](long long, unsigned v) { most = max(most, v); });
        linf[t] = most;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The allocation search (JointSqSearch.plan), every double operation rounded as Java rounds it.

struct GrJsqSearch {
    const int* bins;
    const double* middle;
    const double* upper;
    const double* p0;
    const double* p1;
    const double* p2;
    int entries;
    long long budget;
    double linf;
};

// The first entry of [from, to) whose middle is below x (or at most x when atMost).
__device__ int gr_jsq_first_below(const GrJsqSearch& s, int from, int to, double x, bool atMost) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
        int mid = (int) (((unsigned) lo + (unsigned) hi) >> 1);
        bool below = atMost ? s.middle[mid] <= x : s.middle[mid] < x;
        if (below) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

// The rounding variance of the entries of [from, to) whose middles lie in [lo, hi), never negative.
__device__ double gr_jsq_cells(const GrJsqSearch& s, int from, int to, double lo, double hi) {
    int a = gr_jsq_first_below(s, from, to, hi, true);
    int b = gr_jsq_first_below(s, from, to, lo, false);
    if (b <= a) {
        return 0.0;
    }
    double s0 = __dsub_rn(s.p0[b], s.p0[a]);
    double s1 = __dsub_rn(s.p1[b], s.p1[a]);
    double s2 = __dsub_rn(s.p2[b], s.p2[a]);
    double v = __dsub_rn(__dadd_rn(-s2, __dmul_rn(__dadd_rn(lo, hi), s1)), __dmul_rn(__dmul_rn(lo, hi), s0));
    return gr_jsq_positive(v);
}

// The last entry the k2 values from entry i4 on reach into.
__device__ int gr_jsq_covered(const GrJsqSearch& s, int i4, long long k2) {
    double target = __dadd_rn(s.p0[i4], (double) k2);
    int lo = i4;
    int hi = s.entries;
    while (lo < hi) {
        int mid = (int) (((unsigned) lo + (unsigned) hi + 1u) >> 1);
        if (s.p0[mid] <= target) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

// How many values the bits left after the 8- and 4-bit groups pay for, at most those below them.
__device__ long long gr_jsq_two_bit_count(const GrJsqSearch& s, int i8, int i4) {
    long long left = s.budget - 8 * (long long) s.p0[i8] - 4 * (long long) __dsub_rn(s.p0[i4], s.p0[i8]);
    long long below = (long long) __dsub_rn(s.p0[s.entries], s.p0[i4]);
    long long most = gr_jsq_most_packed(left);
    return most < below ? most : below;
}

// The expected squared error with the groups ending at entries i8 and i4; false if over the budget.
__device__ bool gr_jsq_error(const GrJsqSearch& s, int i8, int i4, double* error) {
    double k8 = s.p0[i8];
    double k4 = __dsub_rn(s.p0[i4], k8);
    if (__dadd_rn(__dmul_rn(8.0, k8), __dmul_rn(4.0, k4)) > (double) s.budget) {
        return false;
    }
    double e = 0.0;
    if (k8 > 0) {
        double step = __dmul_rn(2.0, s.linf) / 255.0;
        e = __dadd_rn(e, __dmul_rn(__dmul_rn(k8, step), step) / 6.0);
    }
    if (k4 > 0) {
        double step = __dmul_rn(2.0, s.upper[i8]) / 15.0;
        for (int j = 0; j < 8; j++) {
            double lo = __dmul_rn((double) (2 * j - 1), step) / 2.0;
            double hi = __dmul_rn((double) (2 * j + 1), step) / 2.0;
            e = __dadd_rn(e, gr_jsq_cells(s, i8, i4, lo, hi));
        }
    }
    long long k2 = gr_jsq_two_bit_count(s, i8, i4);
    int end = gr_jsq_covered(s, i4, k2);
    double part = end < s.entries ? __dsub_rn((double) k2, __dsub_rn(s.p0[end], s.p0[i4])) : 0.0;
    if (k2 > 0) {
        double top = s.upper[i4];
        double half = top / 2.0;
        e = __dadd_rn(e, __dadd_rn(gr_jsq_cells(s, i4, end, 0.0, half), gr_jsq_cells(s, i4, end, half, top)));
        if (part > 0) {
            double m = s.middle[end];
            double cell = m < half ? __dmul_rn(m, __dsub_rn(half, m))
                                   : __dmul_rn(__dsub_rn(m, half), __dsub_rn(top, m));
            e = __dadd_rn(e, __dmul_rn(part, gr_jsq_positive(cell)));
        }
    }
    double partEnergy = part > 0 ? __dmul_rn(__dmul_rn(part, s.middle[end]), s.middle[end]) : 0.0;
    double dropped = __dsub_rn(__dsub_rn(s.p2[s.entries], s.p2[end]), partEnergy);
    *error = __dadd_rn(e, dropped);
    return true;
}

// Grid points of [lo, hi] every `by` (and hi itself): how many, and the j-th.
__device__ __forceinline__ int gr_jsq_points(int lo, int hi, int by) {
    return lo > hi ? 0 : (hi - lo + by - 1) / by + 1;
}

__device__ __forceinline__ int gr_jsq_point(int lo, int hi, int by, int j) {
    long long p = (long long) lo + (long long) j * by;
    return p < hi ? (int) p : hi;
}

// Whether (e, p) comes before (bestE, bestP): a lower error, or the same error earlier in the scan.
__device__ __forceinline__ bool gr_jsq_before(double e, int p, double bestE, int bestP) {
    return bestP < 0 || e < bestE || (e == bestE && p < bestP);
}

// Evaluates the pairs i8 ≤ i4 of [lo8, hi8] × [lo4, hi4] every `by` entries, as JointSqSearch.scan walks them, and
// leaves the first best in best[0] (error) and bestPair (i8, i4), or bestPair[0] = −1 when none is in the budget.
// Every thread of the block must call it.
__device__ void gr_jsq_scan(const GrJsqSearch& s, int lo8, int hi8, int lo4, int hi4, int by, int* rowStart,
                            double* errors, int* pairs, int* bestPair, double* bestError) {
    int j = threadIdx.x;
    int rows = gr_jsq_points(lo8, hi8, by);
    if (j == 0) {
        int total = 0;
        for (int row = 0; row < rows; row++) {
            rowStart[row] = total;
            int i8 = gr_jsq_point(lo8, hi8, by, row);
            total += gr_jsq_points(i8 > lo4 ? i8 : lo4, hi4, by);
        }
        rowStart[rows] = total;
    }
    __syncthreads();
    int total = rowStart[rows];
    double best = 0.0;
    int bestP = -1;
    for (int p = j; p < total; p += GR_JSQ_THREADS) {
        int lo = gr_last_at_most(rowStart, 0, rows, p);
        int i8 = gr_jsq_point(lo8, hi8, by, lo);
        int start4 = i8 > lo4 ? i8 : lo4;
        int i4 = gr_jsq_point(start4, hi4, by, p - rowStart[lo]);
        double e;
        if (gr_jsq_error(s, i8, i4, &e) && gr_jsq_before(e, p, best, bestP)) {
            best = e;
            bestP = p;
        }
    }
    errors[j] = best;
    pairs[j] = bestP;
    __syncthreads();
    for (int half = GR_JSQ_THREADS / 2; half > 0; half >>= 1) {
        if (j < half && pairs[j + half] >= 0 && gr_jsq_before(errors[j + half], pairs[j + half], errors[j], pairs[j])) {
            errors[j] = errors[j + half];
            pairs[j] = pairs[j + half];
        }
        __syncthreads();
    }
    if (j == 0) {
        int p = pairs[0];
        bestPair[0] = -1;
        if (p >= 0) {
            int row = 0;
            while (row + 1 < rows && rowStart[row + 1] <= p) {
                row++;
            }
            int i8 = gr_jsq_point(lo8, hi8, by, row);
            bestPair[0] = i8;
            bestPair[1] = gr_jsq_point(i8 > lo4 ? i8 : lo4, hi4, by, p - rowStart[row]);
            *bestError = errors[0];
        }
    }
    __syncthreads();
}

// Per tensor: the cuts (t8, t4, t2, quota, K8, K4, K2) JointSqSearch.plan gives from the tensor's histogram and
// largest magnitude; widths all 0 (t2 = t4 = t8 = BINS) where the tensor sends nothing. `bins` (BINS ints) and
// `work` (5 × (BINS + 1) doubles) are per block.
extern "C" __global__ void gr_jsq_plan(const int* hist, const unsigned* linf, const long long* budgets, int tensors,
                                       int* bins, double* work, long long* cuts) {
    __shared__ int rowStart[GR_JSQ_THREADS + 2];
    __shared__ double errors[GR_JSQ_THREADS];
    __shared__ int pairs[GR_JSQ_THREADS];
    __shared__ int bestPair[2];
    __shared__ double bestError;
    __shared__ int entries;
    int j = threadIdx.x;
    GrJsqSearch s;
    int* blockBins = bins + (long long) blockIdx.x * GR_JSQ_BINS;
    s.bins = blockBins;
    double* w = work + (long long) blockIdx.x * 5 * (GR_JSQ_BINS + 1);
    double* middle = w;
    double* upper = w + (GR_JSQ_BINS + 1);
    double* p0 = w + 2 * (GR_JSQ_BINS + 1);
    double* p1 = w + 3 * (GR_JSQ_BINS + 1);
    double* p2 = w + 4 * (GR_JSQ_BINS + 1);
    s.middle = middle;
    s.upper = upper;
    s.p0 = p0;
    s.p1 = p1;
    s.p2 = p2;
    for (int t = blockIdx.x; t < tensors; t += gridDim.x) {
        unsigned top = linf[t];
        long long* out = cuts + (long long) t * GR_JSQ_CUTS;
        if (top == 0 || top >= 0x7F800000u) {
            if (j == 0) {
                out[0] = GR_JSQ_BINS;
                out[1] = GR_JSQ_BINS;
                out[2] = GR_JSQ_BINS;
                for (int k = 3; k < 7; k++) {
                    out[k] = 0;
                }
            }
            continue;
        }
        s.linf = (double) __uint_as_float(top);
        s.budget = budgets[t];
        if (j == 0) {
            int topBin = (int) (top >> GR_JSQ_SHIFT);
            const int* h = hist + (long long) t * GR_JSQ_BINS;
            int k = 0;
            p0[0] = 0.0;
            p1[0] = 0.0;
            p2[0] = 0.0;
            for (int bin = topBin; bin >= 1; bin--) {
                int count = h[bin];
                if (count == 0) {
                    continue;
                }
                double hi = bin == topBin ? s.linf : gr_jsq_lower_edge(bin + 1);
                double m = __dmul_rn(0.5, __dadd_rn(gr_jsq_lower_edge(bin), hi));
                blockBins[k] = bin;
                upper[k] = hi;
                middle[k] = m;
                p0[k + 1] = __dadd_rn(p0[k], (double) count);
                p1[k + 1] = __dadd_rn(p1[k], __dmul_rn((double) count, m));
                p2[k + 1] = __dadd_rn(p2[k], __dmul_rn(__dmul_rn((double) count, m), m));
                k++;
            }
            entries = k;
        }
        __syncthreads();
        s.entries = entries;
        int step = s.entries / GR_JSQ_FULL_SEARCH > 1 ? s.entries / GR_JSQ_FULL_SEARCH : 1;
        gr_jsq_scan(s, 0, s.entries, 0, s.entries, step, rowStart, errors, pairs, bestPair, &bestError);
        int best8 = bestPair[0];
        int best4 = bestPair[1];
        double coarse = bestError;
        __syncthreads();
        if (step > 1) {
            int lo8 = best8 - step > 0 ? best8 - step : 0;
            int hi8 = best8 + step < s.entries ? best8 + step : s.entries;
            int lo4 = best4 - step > 0 ? best4 - step : 0;
            int hi4 = best4 + step < s.entries ? best4 + step : s.entries;
            gr_jsq_scan(s, lo8, hi8, lo4, hi4, 1, rowStart, errors, pairs, bestPair, &bestError);
            if (bestPair[0] >= 0 && bestError < coarse) {
                best8 = bestPair[0];
                best4 = bestPair[1];
            }
        }
        if (j == 0) {
            long long best2 = gr_jsq_two_bit_count(s, best8, best4);
            int end = gr_jsq_covered(s, best4, best2);
            out[0] = best8 > 0 ? s.bins[best8 - 1] : GR_JSQ_BINS;
            out[1] = best4 > 0 ? s.bins[best4 - 1] : GR_JSQ_BINS;
            out[2] = end < s.entries ? s.bins[end] : 0;
            out[3] = end < s.entries ? best2 - (long long) __dsub_rn(p0[end], p0[best4]) : 0;
            long long k8 = (long long) p0[best8];
            out[4] = k8;
            out[5] = (long long) p0[best4] - k8;
            out[6] = best2;
        }
        __syncthreads();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The paper's knapsack (allocation: knapsack; JointSqAllocator), every float and double operation as Java's.

#define GR_JSQ_D1 (15.0f / 64)
#define GR_JSQ_D2 (15.0f / 1024)
#define GR_JSQ_D3 ((float) ((1.0 / 256 - 1.0 / 65536) / 16))
// Per tensor in `knapsack`: 1/‖c‖∞ and τ (their float bits), whether the cut applies, the cut's key (the first item
// refused) and, for the value whose items share that key, its position in the tensor and the width the cut leaves it.
#define GR_JSQ_KNAPSACK 6

// The width (0, 2, 4 or 8) of a value of squared normalised magnitude a2 at threshold tau (JointSqAllocator.width).
__device__ __forceinline__ int gr_jsq_knapsack_items(float a2, float tau) {
    int w = (__fmul_rn(a2, GR_JSQ_D1) >= tau ? 2 : 0) + (__fmul_rn(a2, GR_JSQ_D2) >= tau ? 2 : 0)
            + (__fmul_rn(a2, GR_JSQ_D3) >= tau ? 4 : 0);
    return a2 > 0.0f ? w : 0;
}

// (|c|·inverse)² in float, as JointSqAllocator.square.
__device__ __forceinline__ float gr_jsq_square(float c, float inverse) {
    float a = __fmul_rn(fabsf(c), inverse);
    return __fmul_rn(a, a);
}

// A cut item's key: its density's bits above the complement of the value's position in its tensor.
__device__ __forceinline__ unsigned long long gr_jsq_item_key(float density, long long local) {
    return (unsigned long long) __float_as_uint(density) << 32 | (0xFFFFFFFFULL - (unsigned long long) local);
}

// The width the knapsack gives a value c at position `local` of its tensor: its items at τ, those the cut keeps
// (keys above the first it refused) where it applies.
__device__ __forceinline__ int gr_jsq_knapsack_width(float c, long long local, const long long* knapsack) {
    float a2 = gr_jsq_square(c, __uint_as_float((unsigned) knapsack[0]));
    int w = gr_jsq_knapsack_items(a2, __uint_as_float((unsigned) knapsack[1]));
    if (knapsack[2] == 0) {
        return w;
    }
    if (local == knapsack[4]) {
        return (int) knapsack[5];
    }
    unsigned long long refused = (unsigned long long) knapsack[3];
    int kept = 0;
    if (w >= 2 && gr_jsq_item_key(__fmul_rn(a2, GR_JSQ_D1), local) > refused) {
        kept = 2;
        if (w >= 4 && gr_jsq_item_key(__fmul_rn(a2, GR_JSQ_D2), local) > refused) {
            kept = 4;
            if (w == 8 && gr_jsq_item_key(__fmul_rn(a2, GR_JSQ_D3), local) > refused) {
                kept = 8;
            }
        }
    }
    return kept;
}

// The sum of every thread's v over the block (integers: any order); every thread must call it and gets the sum.
__device__ long long gr_jsq_block_sum(long long v, long long* red) {
    int j = threadIdx.x;
    red[j] = v;
    __syncthreads();
    for (int half = GR_JSQ_THREADS / 2; half > 0; half >>= 1) {
        if (j < half) {
            red[j] += red[j + half];
        }
        __syncthreads();
    }
    long long sum = red[0];
    __syncthreads();
    return sum;
}

// The largest key K such that scale · W(keys ≥ K) > limit, W summing the weights of items item(e, &key, &weight)
// for e < count (weight 0: no item), found 4 bits a pass from the top of `bits`-bit keys, and W(keys > K) into
// weightAbove; the caller knows some K exists. Every thread of the block must call it.
template <class Item>
__device__ unsigned long long gr_jsq_weighted_select(long long count, int bits, double scale, double limit,
                                                     long long* red, unsigned long long* chosen,
                                                     long long* weightAbove, Item item) {
    unsigned long long prefix = 0;
    long long above = 0;
    for (int shift = bits - 4; shift >= 0; shift -= 4) {
        long long digits[16];
        for (int d = 0; d < 16; d++) {
            digits[d] = 0;
        }
        for (long long e = threadIdx.x; e < count; e += GR_JSQ_THREADS) {
            unsigned long long key;
            long long weight;
            item(e, &key, &weight);
            if (weight > 0 && (shift + 4 >= 64 || key >> (shift + 4) == prefix >> (shift + 4))) {
                digits[(key >> shift) & 15] += weight;
            }
        }
        long long sums[16];
        for (int d = 0; d < 16; d++) {
            sums[d] = gr_jsq_block_sum(digits[d], red);
        }
        int d = 15;
        while (d > 0 && !(scale * (double) (above + sums[d]) > limit)) {
            above += sums[d];
            d--;
        }
        prefix |= (unsigned long long) d << shift;
    }
    *weightAbove = above;
    if (threadIdx.x == 0) {
        *chosen = prefix;
    }
    __syncthreads();
    unsigned long long result = *chosen;
    __syncthreads();
    return result;
}

// Per tensor (a block each): JointSqAllocator.allocate's threshold τ (the sampled threshold, then up to 10 bracketing
// passes over the tensor) and, where the bits stay over the budget, its cut, into knapsack[4t …]; its cuts made inert
// (no bin quota). A tensor that sends nothing gets τ = ∞.
extern "C" __global__ void __launch_bounds__(GR_JSQ_THREADS) gr_jsq_knapsack(const float* c, const int* offsets,
                                                                             const unsigned* linf,
                                                                             const long long* budgets,
                                                                             const int* sampleStarts,
                                                                             const int* samplePositions,
                                                                             long long* cuts, long long* knapsack) {
    __shared__ long long red[GR_JSQ_THREADS];
    __shared__ unsigned long long chosen[1];
    int t = blockIdx.x;
    long long from = offsets[t];
    long long n = offsets[t + 1] - from;
    long long budget = budgets[t];
    long long* out = knapsack + (long long) t * GR_JSQ_KNAPSACK;
    if (threadIdx.x == 0) {
        long long* cut = cuts + (long long) t * GR_JSQ_CUTS;
        cut[0] = GR_JSQ_BINS;
        cut[1] = GR_JSQ_BINS;
        cut[2] = GR_JSQ_BINS;
        for (int e = 3; e < 7; e++) {
            cut[e] = 0;
        }
    }
    unsigned top = linf[t];
    if (top == 0 || top >= 0x7F800000u) {
        if (threadIdx.x == 0) {
            out[0] = 0;
            out[1] = 0x7F800000u;
            out[2] = 0;
            out[3] = 0;
        }
        return;
    }
    float inverse = __fdiv_rn(1.0f, __uint_as_float(top));
    // the sampled threshold: the largest density whose items and those above it, scaled by n/s, exceed the budget
    const int* positions = samplePositions + sampleStarts[t];
    long long s = sampleStarts[t + 1] - sampleStarts[t];
    double scale = (double) n / (double) s;
    auto sampleItem = [&](long long e, unsigned long long* key, long long* weight) {
        float a2 = gr_jsq_square(c[from + positions[e / 3]], inverse);
        int kind = (int) (e % 3);
        float density = __fmul_rn(a2, kind == 0 ? GR_JSQ_D1 : kind == 1 ? GR_JSQ_D2 : GR_JSQ_D3);
        *key = __float_as_uint(density);
        *weight = *key == 0 ? 0 : kind == 2 ? 4 : 2;
    };
    long long mine = 0;
    for (long long e = threadIdx.x; e < 3 * s; e += GR_JSQ_THREADS) {
        unsigned long long key;
        long long weight;
        sampleItem(e, &key, &weight);
        mine += weight;
    }
    long long total = gr_jsq_block_sum(mine, red);
    float tau = 0.0f;
    long long above = 0;
    if (scale * (double) total > (double) budget) {
        tau = __uint_as_float((unsigned) gr_jsq_weighted_select(3 * s, 32, scale, (double) budget, red, chosen,
                                                                 &above, sampleItem));
    }
    // the bits at τ over the whole tensor, bracketed at most 10 times into 0.8–1.3 of the budget
    auto bitsAt = [&](float threshold) {
        long long sum = 0;
        for (long long i = from + threadIdx.x; i < from + n; i += GR_JSQ_THREADS) {
            sum += gr_jsq_knapsack_items(gr_jsq_square(c[i], inverse), threshold);
        }
        return gr_jsq_block_sum(sum, red);
    };
    long long bits = bitsAt(tau);
    float lo = 0.0f;
    float hi = __int_as_float(0x7F800000);
    for (int round = 0; round < 10 && ((double) bits > 1.3 * (double) budget
                                       || ((double) bits < 0.8 * (double) budget && tau > 0.0f)); round++) {
        if (bits > budget) {
            lo = tau;
            tau = hi < __int_as_float(0x7F800000) ? (float) sqrt(__dmul_rn((double) lo, (double) hi))
                                                    : fmaxf(__fmul_rn(tau, 4.0f), 1e-30f);
        } else {
            hi = tau;
            tau = lo > 0.0f ? (float) sqrt(__dmul_rn((double) lo, (double) hi)) : __fdiv_rn(tau, 4.0f);
        }
        bits = bitsAt(tau);
    }
    // over the budget: the chosen items, largest key first, kept while they fit; the first refused is the cut's key
    unsigned long long refused = 0;
    if (bits > budget) {
        refused = gr_jsq_weighted_select(3 * n, 64, 1.0, (double) budget, red, chosen, &above,
                                         [&](long long e, unsigned long long* key, long long* weight) {
            long long local = e / 3;
            int kind = (int) (e % 3);
            float a2 = gr_jsq_square(c[from + local], inverse);
            int w = gr_jsq_knapsack_items(a2, tau);
            bool chosenItem = kind == 0 ? w >= 2 : kind == 1 ? w >= 4 : w == 8;
            float density = __fmul_rn(a2, kind == 0 ? GR_JSQ_D1 : kind == 1 ? GR_JSQ_D2 : GR_JSQ_D3);
            *key = gr_jsq_item_key(density, local);
            *weight = chosenItem ? (kind == 2 ? 4 : 2) : 0;
        });
    }
    if (threadIdx.x == 0) {
        out[0] = __float_as_uint(inverse);
        out[1] = __float_as_uint(tau);
        out[2] = bits > budget ? 1 : 0;
        out[3] = (long long) refused;
        out[4] = -1;
        out[5] = 0;
        if (bits > budget) {
            // the refused key's value: its items above the key are kept; those that share the key (equal densities,
            // as when they underflow or overflow) are taken in the greedy's order, 0→2, 2→4, 4→8, while they fit
            long long local = (long long) (0xFFFFFFFFULL - (refused & 0xFFFFFFFFULL));
            float a2 = gr_jsq_square(c[from + local], inverse);
            int w = gr_jsq_knapsack_items(a2, tau);
            const float densities[3] = {GR_JSQ_D1, GR_JSQ_D2, GR_JSQ_D3};
            int width = 0;
            long long used = above;
            for (int kind = 0; kind < 3 && (kind == 0 ? w >= 2 : kind == 1 ? w >= 4 : w == 8); kind++) {
                unsigned long long key = gr_jsq_item_key(__fmul_rn(a2, densities[kind]), local);
                int weight = kind == 2 ? 4 : 2;
                if (key > refused) {
                    width += weight;
                } else if (key == refused && used + weight <= budget) {
                    width += weight;
                    used += weight;
                } else {
                    break;
                }
            }
            out[4] = local;
            out[5] = width;
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Widths, lists and the map.

// The width of a value of bin b outside bin t2's quota (JointSqSearch.Cuts.width).
__device__ __forceinline__ int gr_jsq_width(long long t8, long long t4, long long t2, int b) {
    return (t2 < b ? 2 : 0) + (t4 - 1 < b ? 2 : 0) + (t8 - 1 < b ? 4 : 0);
}

// Per chunk: how many of its values lie in bin t2 (above bin 0), the 2-bit group's last bin, whose first `quota`
// values in position order get 2 bits.
extern "C" __global__ void __launch_bounds__(GR_JSQ_THREADS) gr_jsq_quota_counts(const float* c, const int* offsets,
                                                                                 const int* chunkStarts, int tensors,
                                                                                 const long long* cuts,
                                                                                 long long* chunkQuota) {
    __shared__ int scan[GR_JSQ_THREADS];
    long long chunk = blockIdx.x;
    GrJsqChunk k = gr_jsq_chunk(offsets, chunkStarts, tensors, chunk);
    long long t2 = cuts[(long long) k.t * GR_JSQ_CUTS + 2];
    int mine = 0;
    for (long long i = k.first + threadIdx.x; i < k.end; i += GR_JSQ_THREADS) {
        int b = gr_jsq_bin(c[i]);
        mine += b == t2 && b > 0 ? 1 : 0;
    }
    int before = gr_block_exclusive_sum(mine, scan);
    if (threadIdx.x == GR_JSQ_THREADS - 1) {
        chunkQuota[chunk] = before + mine;
    }
}

// Per chunk: each value's symbol (0..3) by the cuts (bin t2's quota counted on from the chunks before, by a block scan
// in position order), and the chunk's count of each symbol, its order-1 transition counts (the context starting at 0
// with the chunk, as the width map codes it) and each symbol's largest |c| (bits).
extern "C" __global__ void __launch_bounds__(GR_JSQ_THREADS) gr_jsq_symbols(const float* c, const int* offsets,
                                                                            const int* chunkStarts, int tensors,
                                                                            const long long* cuts,
                                                                            const long long* chunkQuota,
                                                                            const long long* knapsack,
                                                                            unsigned char* symbols,
                                                                            long long* chunkCounts,
                                                                            int* chunkTransitions,
                                                                            unsigned* chunkMaxima) {
    __shared__ int scan[GR_JSQ_THREADS];
    __shared__ int syms[GR_JSQ_THREADS];
    __shared__ int totals[1];
    __shared__ int last[1];
    __shared__ long long quotaBefore[1];
    __shared__ int counts[GR_JSQ_THREADS][16];
    __shared__ unsigned maxima[GR_JSQ_THREADS][4];
    long long chunk = blockIdx.x;
    GrJsqChunk k = gr_jsq_chunk(offsets, chunkStarts, tensors, chunk);
    int j = threadIdx.x;
    const long long* cut = cuts + (long long) k.t * GR_JSQ_CUTS;
    long long t8 = cut[0];
    long long t4 = cut[1];
    long long t2 = cut[2];
    long long quota = cut[3];
    gr_jsq_before(chunkQuota, 1, 1, chunkStarts, k.t, chunk, quotaBefore);
    long long quotaSeen = quotaBefore[0];
    int mine[16];
    unsigned most[4] = {0, 0, 0, 0};
    for (int e = 0; e < 16; e++) {
        mine[e] = 0;
    }
    if (j == 0) {
        last[0] = 0;
    }
    for (long long start = k.first; start < k.end; start += GR_JSQ_THREADS) {
        long long i = start + j;
        bool valid = i < k.end;
        float v = valid ? c[i] : 0.0f;
        int b = gr_jsq_bin(v);
        int width = knapsack != nullptr && valid
                            ? gr_jsq_knapsack_width(v, i - offsets[k.t], knapsack + (long long) k.t * GR_JSQ_KNAPSACK)
                            : gr_jsq_width(t8, t4, t2, b);
        int flag = valid && b == t2 && b > 0 ? 1 : 0;
        int before = gr_block_exclusive_sum(flag, scan);
        if (j == GR_JSQ_THREADS - 1) {
            totals[0] = before + flag;
        }
        if (flag && quotaSeen + before < quota) {
            width = 2;
        }
        int sym = width == 8 ? 3 : width == 4 ? 2 : width == 2 ? 1 : 0;
        syms[j] = sym;
        __syncthreads();
        if (valid) {
            symbols[i] = (unsigned char) sym;
            int previous = i == k.first ? 0 : j == 0 ? last[0] : syms[j - 1];
            mine[previous << 2 | sym]++;
            most[sym] = max(most[sym], __float_as_uint(v) & 0x7FFFFFFFu);
        }
        __syncthreads();
        quotaSeen += totals[0];
        if (valid && (i == k.end - 1 || j == GR_JSQ_THREADS - 1)) {
            last[0] = sym;
        }
        __syncthreads();
    }
    for (int e = 0; e < 16; e++) {
        counts[j][e] = mine[e];
    }
    for (int g = 0; g < 4; g++) {
        maxima[j][g] = most[g];
    }
    __syncthreads();
    if (j < 16) {
        int sum = 0;
        for (int e = 0; e < GR_JSQ_THREADS; e++) {
            sum += counts[e][j];
        }
        chunkTransitions[chunk * 16 + j] = sum;
    } else if (j >= 32 && j < 36) {
        // symbol s's largest magnitude, and its count: every value is the second of one transition
        int s = j - 32;
        unsigned m = 0;
        long long n = 0;
        for (int e = 0; e < GR_JSQ_THREADS; e++) {
            m = max(m, maxima[e][s]);
            for (int previous = 0; previous < 4; previous++) {
                n += counts[e][previous << 2 | s];
            }
        }
        chunkMaxima[chunk * 4 + s] = m;
        chunkCounts[chunk * 4 + s] = n;
    }
}

// The coder tables of the frequencies f[16] (WidthMap's): cumulative starts, and floor(x / f) = (x · reciprocal) >> shift
// for every state x < 2^31, a multiply where a 64-bit division would cost tens of instructions in the serial chain.
__device__ void gr_jsq_tables(const int* f, int* start, unsigned long long* reciprocal, int* shift) {
    for (int c = 0; c < 4; c++) {
        start[5 * c] = 0;
        for (int s = 0; s < 4; s++) {
            int q = f[c << 2 | s];
            start[5 * c + s + 1] = start[5 * c + s] + q;
            int bits = 0;
            while ((1 << bits) < q) {
                bits++;
            }
            shift[c << 2 | s] = 31 + bits;
            reciprocal[c << 2 | s] = q > 0 ? ((1ULL << (31 + bits)) + q - 1) / (unsigned long long) q : 0;
        }
    }
}

// Per tensor, one thread each: its chunks' counts summed, each symbol's count and largest magnitude (the group scales)
// into info, and WidthMap's frequencies from the transition counts (each context's counts scaled to 2^12, at least 1
// for a symbol that occurs, the remainder to the first largest).
extern "C" __global__ void gr_jsq_frequencies(int tensors, const int* chunkStarts, const int* chunkTransitions,
                                              const long long* chunkCounts, const unsigned* chunkMaxima,
                                              long long* info, int* frequencies) {
    GR_FOR_EACH(t, tensors) {
        long long counts[16];
        long long k[4] = {0, 0, 0, 0};
        unsigned most[4] = {0, 0, 0, 0};
        for (int e = 0; e < 16; e++) {
            counts[e] = 0;
        }
        for (long long h = chunkStarts[t]; h < chunkStarts[t + 1]; h++) {
            for (int e = 0; e < 16; e++) {
                counts[e] += chunkTransitions[16 * h + e];
            }
            for (int s = 0; s < 4; s++) {
                k[s] += chunkCounts[4 * h + s];
                most[s] = max(most[s], chunkMaxima[4 * h + s]);
            }
        }
        long long* in = info + (long long) t * GR_JSQ_INFO;
        for (int g = 1; g < 4; g++) {
            in[GR_JSQ_K + g - 1] = k[g];
            in[GR_JSQ_SCALE + g - 1] = most[g];
        }
        int* f = frequencies + t * 16;
        for (int c = 0; c < 4; c++) {
            long long total = 0;
            for (int s = 0; s < 4; s++) {
                total += counts[c << 2 | s];
            }
            int sum = 0;
            int largest = 0;
            for (int s = 0; s < 4; s++) {
                long long n = counts[c << 2 | s];
                long long scaled = n * GR_JSQ_TOTAL / (total > 0 ? total : 1);
                int q = total == 0 ? (s == 0 ? GR_JSQ_TOTAL : 0) : n == 0 ? 0 : (int) (scaled > 1 ? scaled : 1);
                f[c << 2 | s] = q;
                sum += q;
                largest = q > f[c << 2 | largest] ? s : largest;
            }
            f[c << 2 | largest] += GR_JSQ_TOTAL - sum;
        }
    }
}

// The symbols the width map's coder takes at a time: their loads and table entries (which do not depend on the
// coder's state) are all asked for before the first of their steps, so that the chain of dependent steps waits for
// no load.
#define GR_JSQ_AHEAD 8

// One thread per chunk (of GR_JSQ_CHUNK symbols, every tensor's numbered one after another): the coder over the
// chunk's symbols, last to first, its context starting at 0, into bytes[2·first + 8·g …] in the order it shifted
// them out, and its byte count into chunkBytes[g]. A thread has a chunk to itself, so the chain of steps is a
// chunk's whole time: GR_JSQ_AHEAD symbols at a time, their slots' frequency, start and reciprocal are read before
// their steps run.
extern "C" __global__ void gr_jsq_code(const unsigned char* symbols, const int* offsets, const int* chunkStarts,
                                       int tensors, const int* frequencies, unsigned char* bytes, int* chunkBytes) {
    GR_FOR_EACH(g, chunkStarts[tensors]) {
        GrJsqChunk chunk = gr_jsq_chunk(offsets, chunkStarts, tensors, g);
        long long first = chunk.first;
        long long end = chunk.end;
        const int* f = frequencies + chunk.t * 16;
        int start[20];
        unsigned long long reciprocal[16];
        int shift[16];
        gr_jsq_tables(f, start, reciprocal, shift);
        unsigned char* out = bytes + 2 * first + 8 * g;
        int k = 0;
        unsigned long long x = GR_JSQ_LOW;
        for (long long top = end - 1; top >= first; top -= GR_JSQ_AHEAD) {
            unsigned long long q[GR_JSQ_AHEAD];
            unsigned long long r[GR_JSQ_AHEAD];
            int sh[GR_JSQ_AHEAD];
            int st[GR_JSQ_AHEAD];
#pragma unroll
            for (int u = 0; u < GR_JSQ_AHEAD; u++) {
                long long i = top - u;
                if (i >= first) {
                    int s = symbols[i];
                    int slot = (i > first ? symbols[i - 1] : 0) << 2 | s;
                    q[u] = (unsigned long long) f[slot];
                    r[u] = reciprocal[slot];
                    sh[u] = shift[slot];
                    st[u] = start[5 * (slot >> 2) + s];
                }
            }
#pragma unroll
            for (int u = 0; u < GR_JSQ_AHEAD; u++) {
                if (top - u >= first) {
                    unsigned long long limit = q[u] << (31 - GR_JSQ_PRECISION);
                    while (x >= limit) {
                        out[k++] = (unsigned char) x;
                        x >>= 8;
                    }
                    unsigned long long d = x * r[u] >> sh[u];
                    x = (d << GR_JSQ_PRECISION) + (x - d * q[u]) + (unsigned long long) st[u];
                }
            }
        }
        out[k++] = (unsigned char) (x >> 24);
        out[k++] = (unsigned char) (x >> 16);
        out[k++] = (unsigned char) (x >> 8);
        out[k++] = (unsigned char) x;
        chunkBytes[g] = k;
    }
}

// Per tensor, one thread each: where each chunk's bytes start among the tensor's (chunkPrefix), the mode with fewer
// bits, and the tensor's map, side and total bits.
extern "C" __global__ void gr_jsq_map_bits(const int* offsets, const int* chunkStarts, int tensors,
                                           const int* chunkBytes, int* chunkPrefix, long long* info) {
    GR_FOR_EACH(t, tensors) {
        long long n = offsets[t + 1] - offsets[t];
        int chunks = chunkStarts[t + 1] - chunkStarts[t];
        long long total = 0;
        for (int c = 0; c < chunks; c++) {
            chunkPrefix[chunkStarts[t] + c] = (int) total;
            total += chunkBytes[chunkStarts[t] + c];
        }
        long long* in = info + (long long) t * GR_JSQ_INFO;
        long long codedBits = GR_JSQ_CODED_HEADER + GR_JSQ_LENGTH_BITS * (chunks - 1LL) + 8 * total;
        bool coded = codedBits < 2 * n + 1;
        long long mapBits = coded ? codedBits : 2 * n + 1;
        long long k2 = in[GR_JSQ_K];
        long long k4 = in[GR_JSQ_K + 1];
        long long k8 = in[GR_JSQ_K + 2];
        long long groups = (k2 > 0 ? 1 : 0) + (k4 > 0 ? 1 : 0) + (k8 > 0 ? 1 : 0);
        in[GR_JSQ_MAP_BITS] = mapBits;
        in[GR_JSQ_CODED] = coded ? 1 : 0;
        in[GR_JSQ_SIDE] = mapBits + 32 * groups;
        in[GR_JSQ_BITS] = mapBits + 32 * groups + gr_jsq_packed(k2) + 4 * k4 + 8 * k8;
    }
}

// One thread: each tensor's first bit, and the payload's bits and side bits into sizes[0] and sizes[1].
extern "C" __global__ void gr_jsq_offsets(long long* info, int tensors, long long* sizes) {
    if (blockIdx.x != 0 || threadIdx.x != 0) {
        return;
    }
    long long bits = 0;
    long long side = 0;
    for (int t = 0; t < tensors; t++) {
        long long* in = info + (long long) t * GR_JSQ_INFO;
        in[GR_JSQ_START] = bits;
        bits += in[GR_JSQ_BITS];
        side += in[GR_JSQ_SIDE];
    }
    sizes[0] = bits;
    sizes[1] = side;
}

// ---------------------------------------------------------------------------------------------------------------
// Rounding and packing.

// Value i's uniform in [0, 1): the top 24 bits of the high half of draw first + i/2 for even i, the low for odd.
__device__ __forceinline__ float gr_jsq_uniform(unsigned long long key, unsigned long long first, long long i) {
    unsigned long long draw = gr_draw(key, first + (unsigned long long) (i >> 1));
    unsigned half = (unsigned) ((i & 1) == 0 ? draw >> 32 : draw);
    return __fmul_rn((float) (half >> 8), 5.9604644775390625e-8f);
}

// The value of 2-bit digit d (0..4): (d − 2)·s/2.
__device__ __forceinline__ float gr_jsq_five_level(int d, float scale) {
    return __fmul_rn(__fmul_rn((float) (d - 2), scale), 0.5f);
}

// The value of level j of top + 1 symmetric levels: (2j − top)/top · s.
__device__ __forceinline__ float gr_jsq_symmetric(int j, float scale, int top) {
    return __fdiv_rn(__fmul_rn((float) (2 * j - top), scale), (float) top);
}

// Java's (int) Math.max(0, Math.min(top, x)) of a floor.
__device__ __forceinline__ int gr_jsq_clamp(double x, int top) {
    if (x != x) {
        return 0;
    }
    return x >= (double) top ? top : x <= 0.0 ? 0 : (int) x;
}

// Per chunk: every sent value rounded to its group's levels with the uniform of its position, its code into
// codes[from + k] where k is its place in the tensor's lists (the 2-bit group, then the 4-bit, then the 8-bit, each in
// position order: the chunks before counted from their symbol counts, the chunk's own by block scans), and its
// residual c − D(c) into r (the values not sent keep r = c).
extern "C" __global__ void __launch_bounds__(GR_JSQ_THREADS) gr_jsq_quantize(float* r, const int* offsets,
                                                                             const int* chunkStarts, int tensors,
                                                                             const unsigned char* symbols,
                                                                             const long long* chunkCounts,
                                                                             const long long* info,
                                                                             unsigned char* codes,
                                                                             unsigned long long key,
                                                                             unsigned long long first) {
    __shared__ int scan[GR_JSQ_THREADS];
    __shared__ int totals[1];
    __shared__ long long before[4];
    long long chunk = blockIdx.x;
    GrJsqChunk k = gr_jsq_chunk(offsets, chunkStarts, tensors, chunk);
    const long long* in = info + (long long) k.t * GR_JSQ_INFO;
    long long k2 = in[GR_JSQ_K];
    long long k4 = in[GR_JSQ_K + 1];
    gr_jsq_before(chunkCounts, 4, 4, chunkStarts, k.t, chunk, before);
    long long seen[4] = {0, before[1], k2 + before[2], k2 + k4 + before[3]};
    float scales[3];
    for (int g = 0; g < 3; g++) {
        scales[g] = __uint_as_float((unsigned) in[GR_JSQ_SCALE + g]);
    }
    long long from = offsets[k.t];
    gr_jsq_in_groups(symbols, k.first, k.end, seen, scan, totals, [&](long long i, int sym, long long place) {
        if (sym == 0) {
            return;
        }
        float c = r[i];
        float u = gr_jsq_uniform(key, first, i);
        int code;
        float decoded;
        if (sym == 1) {
            float scale = scales[0];
            float inverse = scale > 0.0f ? __fdiv_rn(2.0f, scale) : 0.0f;
            float v = __fadd_rn(__fadd_rn(__fmul_rn(c, inverse), 2.0f), u);
            code = gr_jsq_clamp((double) floorf(v), 4);
            decoded = gr_jsq_five_level(code, scale);
        } else {
            int top = sym == 2 ? 15 : 255;
            float scale = scales[sym - 1];
            float inverse = scale > 0.0f ? __fdiv_rn(1.0f, scale) : 0.0f;
            float a = __fadd_rn(__fmul_rn(__fmul_rn(c, inverse), (float) top), (float) top);
            double w = __dadd_rn(__dmul_rn((double) a, 0.5), (double) u);
            code = gr_jsq_clamp(floor(w), top);
            decoded = gr_jsq_symmetric(code, scale, top);
        }
        codes[from + place] = (unsigned char) code;
        r[i] = __fsub_rn(c, decoded);
    });
}

// The field of tensor t's payload part (whose encode left `in`) that holds bit b of it: its first bit, width and
// value.
__device__ void gr_jsq_field(const long long* in, int t, int from, long long b, const int* frequencies,
                             const int* chunkStarts, const int* chunkBytes, const int* chunkPrefix,
                             const unsigned char* symbols, const unsigned char* bytes, const unsigned char* codes,
                             long long* fieldStart, int* fieldWidth, unsigned* fieldValue) {
    long long mapBits = in[GR_JSQ_MAP_BITS];
    bool coded = in[GR_JSQ_CODED] != 0;
    if (b < 1) {
        *fieldStart = 0;
        *fieldWidth = 1;
        *fieldValue = coded ? 1u : 0u;
        return;
    }
    if (b < mapBits) {
        if (!coded) {
            long long j = (b - 1) / 2;
            *fieldStart = 1 + 2 * j;
            *fieldWidth = 2;
            *fieldValue = symbols[from + j];
        } else if (b < GR_JSQ_CODED_HEADER) {
            int j = (int) ((b - 1) / 13);
            *fieldStart = 1 + 13LL * j;
            *fieldWidth = 13;
            *fieldValue = (unsigned) frequencies[t * 16 + (j / 3) * 4 + j % 3];
        } else {
            int g0 = chunkStarts[t];
            int chunks = chunkStarts[t + 1] - g0;
            long long data = GR_JSQ_CODED_HEADER + GR_JSQ_LENGTH_BITS * (chunks - 1LL);
            if (b < data) {
                long long j = (b - GR_JSQ_CODED_HEADER) / GR_JSQ_LENGTH_BITS;
                *fieldStart = GR_JSQ_CODED_HEADER + GR_JSQ_LENGTH_BITS * j;
                *fieldWidth = GR_JSQ_LENGTH_BITS;
                *fieldValue = (unsigned) chunkBytes[g0 + j];
            } else {
                long long q = (b - data) / 8;
                int a = gr_last_at_most(chunkPrefix + g0, 0, chunks, q);
                long long g = g0 + a;
                long long first = from + (long long) a * GR_JSQ_CHUNK;
                *fieldStart = data + 8 * q;
                *fieldWidth = 8;
                *fieldValue = bytes[2 * first + 8 * g + chunkBytes[g] - 1 - (q - chunkPrefix[g])];
            }
        }
        return;
    }
    long long k2 = in[GR_JSQ_K];
    long long k4 = in[GR_JSQ_K + 1];
    long long rel = b - mapBits;
    int present = 0;
    for (int g = 0; g < 3; g++) {
        if (in[GR_JSQ_K + g] > 0) {
            if (rel < 32LL * (present + 1)) {
                *fieldStart = mapBits + 32LL * present;
                *fieldWidth = 32;
                *fieldValue = (unsigned) in[GR_JSQ_SCALE + g];
                return;
            }
            present++;
        }
    }
    long long values = mapBits + 32LL * present;
    rel = b - values;
    long long twoBit = gr_jsq_packed(k2);
    if (rel < twoBit) {
        long long j = rel / 7;
        long long digits = k2 - 3 * j < 3 ? k2 - 3 * j : 3;
        unsigned code = 0;
        unsigned weight = 1;
        for (long long d = 0; d < digits; d++) {
            code += codes[from + 3 * j + d] * weight;
            weight *= 5;
        }
        *fieldStart = values + 7 * j;
        *fieldWidth = digits == 3 ? 7 : digits == 2 ? 5 : 3;
        *fieldValue = code;
        return;
    }
    rel -= twoBit;
    if (rel < 4 * k4) {
        long long j = rel / 4;
        *fieldStart = values + twoBit + 4 * j;
        *fieldWidth = 4;
        *fieldValue = codes[from + k2 + j];
        return;
    }
    rel -= 4 * k4;
    long long j = rel / 8;
    *fieldStart = values + twoBit + 4 * k4 + 8 * j;
    *fieldWidth = 8;
    *fieldValue = codes[from + k2 + k4 + j];
}

// One thread per 32-bit word of the payload: ORs in every field that overlaps it; words past the payload's bits
// are zero.
extern "C" __global__ void gr_jsq_pack(unsigned* payload, long long words, const int* offsets, int tensors,
                                       const long long* info, const int* frequencies, const int* chunkStarts,
                                       const int* chunkBytes, const int* chunkPrefix, const unsigned char* symbols,
                                       const unsigned char* bytes, const unsigned char* codes,
                                       const long long* sizes) {
    long long total = sizes[0];
    GR_FOR_EACH(w, words) {
        long long lo = 32 * w;
        long long hi = lo + 32 < total ? lo + 32 : total;
        unsigned long long word = 0;
        if (lo < total) {
            int t = gr_last_at_most_by(0, tensors, lo,
                                       [&](int u) { return info[(long long) u * GR_JSQ_INFO + GR_JSQ_START]; });
            long long b = lo;
            while (b < hi) {
                const long long* in = info + (long long) t * GR_JSQ_INFO;
                long long start = in[GR_JSQ_START];
                if (b >= start + in[GR_JSQ_BITS]) {
                    t++;
                    continue;
                }
                long long fieldStart;
                int fieldWidth;
                unsigned fieldValue;
                gr_jsq_field(in, t, offsets[t], b - start, frequencies, chunkStarts, chunkBytes, chunkPrefix,
                             symbols, bytes, codes, &fieldStart, &fieldWidth, &fieldValue);
                unsigned long long v = fieldWidth == 32 ? fieldValue : fieldValue & ((1u << fieldWidth) - 1u);
                long long shift = start + fieldStart - lo;
                word |= shift >= 0 ? v << shift : v >> -shift;
                b = start + fieldStart + fieldWidth;
            }
        }
        payload[w] = (unsigned) word;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Decoding.

// One thread per chunk of every tensor's map: the chunk decoded from the payload at the first bit the slot's encode
// found for its tensor (its byte offset from the chunks' byte counts before it), into symbols, with its count of each
// symbol into counts[4·g …]; the tensor's last chunk also leaves the map's bits in mapBits[t].
extern "C" __global__ void gr_jsq_read_map(const unsigned* payload, const long long* info, const int* offsets,
                                           const int* chunkStarts, int tensors, unsigned char* symbols,
                                           long long* counts, long long* mapBits) {
    GR_FOR_EACH(g, chunkStarts[tensors]) {
        int t = gr_jsq_tensor_of_chunk(chunkStarts, tensors, g);
        int c = (int) (g - chunkStarts[t]);
        int chunks = chunkStarts[t + 1] - chunkStarts[t];
        long long n = offsets[t + 1] - offsets[t];
        long long first = offsets[t] + (long long) c * GR_JSQ_CHUNK;
        long long end = first + GR_JSQ_CHUNK < offsets[t + 1] ? first + GR_JSQ_CHUNK : offsets[t + 1];
        long long at = info[(long long) t * GR_JSQ_INFO + GR_JSQ_START];
        long long k[4] = {0, 0, 0, 0};
        bool last = c == chunks - 1;
        if (gr_read_bits(payload, at, 1) == 0) {
            for (long long i = first; i < end; i++) {
                int s = (int) gr_read_bits(payload, at + 1 + 2 * (i - offsets[t]), 2);
                symbols[i] = (unsigned char) s;
                k[s]++;
            }
            if (last) {
                mapBits[t] = 1 + 2 * n;
            }
        } else {
            int f[16];
            for (int cx = 0; cx < 4; cx++) {
                int sum = 0;
                for (int s = 0; s < 3; s++) {
                    f[cx << 2 | s] = (int) gr_read_bits(payload, at + 1 + 13LL * (3 * cx + s), 13);
                    sum += f[cx << 2 | s];
                }
                f[cx << 2 | 3] = GR_JSQ_TOTAL - sum;
            }
            int start[20];
            unsigned long long reciprocal[16];
            int shift[16];
            gr_jsq_tables(f, start, reciprocal, shift);
            long long data = at + GR_JSQ_CODED_HEADER + GR_JSQ_LENGTH_BITS * (chunks - 1LL);
            long long before = 0;
            for (int b = 0; b < c; b++) {
                before += gr_read_bits(payload, at + GR_JSQ_CODED_HEADER + GR_JSQ_LENGTH_BITS * (long long) b,
                                      GR_JSQ_LENGTH_BITS);
            }
            long long next = data + 8 * before;
            unsigned long long x = 0;
            for (int b = 0; b < 4; b++) {
                x |= (unsigned long long) gr_read_bits(payload, next, 8) << (8 * b);
                next += 8;
            }
            // each context's starts of symbols 1, 2 and 3 in 16-bit fields of a register, and the payload's bits
            // from `next` on in a register window refilled a word at a time, so that a step reads no memory
            unsigned long long starts[4];
            for (int cx = 0; cx < 4; cx++) {
                starts[cx] = (unsigned long long) start[5 * cx + 1] | (unsigned long long) start[5 * cx + 2] << 16
                        | (unsigned long long) start[5 * cx + 3] << 32;
            }
            unsigned long long window = payload[next >> 5] >> (next & 31);
            int held = 32 - (int) (next & 31);
            long long word = (next >> 5) + 1;
            long long k0 = 0;
            long long k1 = 0;
            long long k2 = 0;
            long long k3 = 0;
            int previous = 0;
            for (long long i = first; i < end; i++) {
                int slot = (int) (x & (GR_JSQ_TOTAL - 1));
                unsigned long long p = previous == 0 ? starts[0] : previous == 1 ? starts[1]
                        : previous == 2 ? starts[2] : starts[3];
                int s1 = (int) (p & 0xFFFF);
                int s2 = (int) (p >> 16 & 0xFFFF);
                int s3 = (int) (p >> 32 & 0xFFFF);
                int s = (slot >= s1 ? 1 : 0) + (slot >= s2 ? 1 : 0) + (slot >= s3 ? 1 : 0);
                int low = s == 0 ? 0 : s == 1 ? s1 : s == 2 ? s2 : s3;
                int high = s == 0 ? s1 : s == 1 ? s2 : s == 2 ? s3 : GR_JSQ_TOTAL;
                x = (unsigned long long) (high - low) * (x >> GR_JSQ_PRECISION) + slot - low;
                while (x < GR_JSQ_LOW) {
                    if (held < 8) {
                        window |= (unsigned long long) payload[word++] << held;
                        held += 32;
                    }
                    x = x << 8 | (window & 0xFF);
                    window >>= 8;
                    held -= 8;
                    next += 8;
                }
                symbols[i] = (unsigned char) s;
                k0 += s == 0;
                k1 += s == 1;
                k2 += s == 2;
                k3 += s == 3;
                previous = s;
            }
            k[0] = k0;
            k[1] = k1;
            k[2] = k2;
            k[3] = k3;
            if (last) {
                mapBits[t] = next - at;
            }
        }
        for (int s = 0; s < 4; s++) {
            counts[4 * g + s] = k[s];
        }
    }
}

// Per chunk: each value's code read at its place (its rank in its group: the chunks before counted from what
// gr_jsq_read_map decoded, the chunk's own by block scans in position order, as the encode placed them), decoded and
// added to the mean of `workers` payloads as gr_add_to_mean adds.
extern "C" __global__ void __launch_bounds__(GR_JSQ_THREADS) gr_jsq_decode_mean(const unsigned* payload,
                                                                                const long long* info,
                                                                                const long long* counts,
                                                                                const long long* mapBits,
                                                                                const int* offsets,
                                                                                const int* chunkStarts, int tensors,
                                                                                const unsigned char* symbols,
                                                                                int worker, int workers,
                                                                                float inverse, float* mean) {
    __shared__ int scan[GR_JSQ_THREADS];
    __shared__ int total[1];
    __shared__ long long before[4];
    __shared__ long long all[4];
    long long chunk = blockIdx.x;
    GrJsqChunk c = gr_jsq_chunk(offsets, chunkStarts, tensors, chunk);
    gr_jsq_before(counts, 4, 4, chunkStarts, c.t, chunk, before);
    gr_jsq_before(counts, 4, 4, chunkStarts, c.t, chunkStarts[c.t + 1], all);
    long long at = info[(long long) c.t * GR_JSQ_INFO + GR_JSQ_START];
    long long k2 = all[1];
    long long k4 = all[2];
    float scales[3] = {0.0f, 0.0f, 0.0f};
    long long next = at + mapBits[c.t];
    for (int g = 0; g < 3; g++) {
        if (all[1 + g] > 0) {
            scales[g] = __uint_as_float(gr_read_bits(payload, next, 32));
            next += 32;
        }
    }
    long long values = next;
    long long fourBit = values + gr_jsq_packed(k2);
    long long eightBit = fourBit + 4 * k4;
    long long seen[4] = {0, before[1], before[2], before[3]};
    gr_jsq_in_groups(symbols, c.first, c.end, seen, scan, total, [&](long long i, int sym, long long rank) {
        float v = 0.0f;
        if (sym == 1) {
            long long group = rank / 3;
            long long digits = k2 - 3 * group < 3 ? k2 - 3 * group : 3;
            unsigned code = gr_read_bits(payload, values + 7 * group, digits == 3 ? 7 : digits == 2 ? 5 : 3);
            for (long long m = 0; m < rank % 3; m++) {
                code /= 5;
            }
            v = gr_jsq_five_level((int) (code % 5), scales[0]);
        } else if (sym == 2) {
            v = gr_jsq_symmetric((int) gr_read_bits(payload, fourBit + 4 * rank, 4), scales[1], 15);
        } else if (sym == 3) {
            v = gr_jsq_symmetric((int) gr_read_bits(payload, eightBit + 8 * rank, 8), scales[2], 255);
        }
        float m = worker == 0 ? v : __fadd_rn(mean[i], v);
        mean[i] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    });
}
