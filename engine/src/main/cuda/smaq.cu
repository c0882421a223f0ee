// SmaQ's payloads on the GPU (CudaSmaqCodec), byte for byte what the CPU encoder (org.gridrun.engine.compress.Smaq)
// writes for the same random stream, and their decoding into the workers' mean as the host's collective does.
//
// The payload is μ and σ as float32 (a NaN as the canonical one), the escape width W in 8 bits, then one record per
// value, least significant bit first: 6 bits within one deviation, 8 for an outlier, 8 + W for an escape. A record's
// width depends on its value, so the encode is five kernels, none with atomics:
//   gr_smaq_moments   one thread: μ, σ and the derived limits from the sum and the sum of squares, which
//                     chains.cu adds in the host's order (ChainSums: chunks of 128 chains and a tree);
//   gr_smaq_tile_counts  per tile (a block of contiguous thread chunks): its outliers, escapes and largest |x − μ|;
//   gr_smaq_offsets   one block: the tiles' counts scanned into offsets, W and the payload's bit count;
//   gr_smaq_records   per tile again: a block scan of the threads' counts gives each value's bit offset,
//                     72 + 6e + 2·(outliers before e) + W·(escapes before e), and its record;
//   gr_smaq_pack      one thread per 32-bit word: the header's bits, then the records that overlap the word, found
//                     by binary searches of the tiles' first offsets and of the tile's. No thread writes another's
//                     word.
// Decoding reads each value's record at its offset (kept per worker from its encode), one thread per value.
#include "gridrun.cuh"

#define GR_SMAQ_THREADS 256
#define GR_SMAQ_HEADER 72
#define GR_SMAQ_MAIN_SCALE 15.0f
#define GR_SMAQ_OUTLIER_SCALE 42.0f
#define GR_SMAQ_LAST_PLAIN 62
#define GR_SMAQ_ESCAPE 63
#define GR_SMAQ_CLAMP_RANGE 1.5f
// 2^24 / 42 in float, as Smaq.ESCAPE_RANGE
#define GR_SMAQ_ESCAPE_RANGE (16777216.0f / 42.0f)

// The parameters gr_smaq_moments and gr_smaq_offsets leave for the later kernels, as ints.
#define GR_P_MEAN 0
#define GR_P_STD 1
#define GR_P_M 2
#define GR_P_INVERSE 3
#define GR_P_LIMIT 4
#define GR_P_ESCAPE_LIMIT 5
#define GR_P_WIDTH 6

// Java's Math.min(float, float): a NaN operand gives NaN, −0 is below +0.
__device__ __forceinline__ float gr_java_minf(float a, float b) {
    if (a != a) {
        return a;
    }
    if (a == 0.0f && b == 0.0f && __float_as_int(b) == (int) 0x80000000) {
        return b;
    }
    return a <= b ? a : b;
}

// Java's (int) of a float: NaN gives 0, out-of-range values saturate.
__device__ __forceinline__ int gr_java_int(float t) {
    long long l = gr_java_long(t);
    return l > 0x7FFFFFFFLL ? 0x7FFFFFFF : l < -0x80000000LL ? (int) 0x80000000 : (int) l;
}

// Java's Math.nextUp and Math.nextDown of a float.
__device__ __forceinline__ float gr_next_up(float d) {
    if (d != d || __float_as_uint(d) == 0x7F800000u) {
        return d;
    }
    d = __fadd_rn(d, 0.0f);
    return __int_as_float(__float_as_int(d) + (d >= 0.0f ? 1 : -1));
}

__device__ __forceinline__ float gr_next_down(float d) {
    if (d != d || __float_as_uint(d) == 0xFF800000u) {
        return d;
    }
    if (d == 0.0f) {
        return -__int_as_float(1);
    }
    return __int_as_float(__float_as_int(d) + (d > 0.0f ? -1 : 1));
}

// Smaq.far: t = (min(|d|·inverse − 1, range))·42.
__device__ __forceinline__ float gr_smaq_far(float d, float inverse, float range) {
    return __fmul_rn(gr_java_minf(__fsub_rn(__fmul_rn(fabsf(d), inverse), 1.0f), range), GR_SMAQ_OUTLIER_SCALE);
}

// Smaq.magnitudeBits: the bits of |d|, 0 for NaN.
__device__ __forceinline__ int gr_smaq_magnitude_bits(float d) {
    int abs = __float_as_int(d) & 0x7FFFFFFF;
    return abs > 0x7F800000 ? 0 : abs;
}

// (a − b) >>> 31 of Java ints: 1 when a − b is negative (wrapping).
__device__ __forceinline__ int gr_below(int a, int b) {
    return (int) (((unsigned) a - (unsigned) b) >> 31);
}

// A float's bits for the header: a NaN as the canonical one.
__device__ __forceinline__ unsigned gr_header_bits(float v) {
    return v != v ? 0x7FC00000u : __float_as_uint(v);
}


// Smaq.escapeLimit: the bits of the largest |d| whose far is at most 62.
__device__ int gr_smaq_escape_limit(float inverse, float range) {
    float e = __fdiv_rn(__fadd_rn(1.0f, __fdiv_rn((float) GR_SMAQ_LAST_PLAIN, GR_SMAQ_OUTLIER_SCALE)), inverse);
    while (gr_smaq_far(e, inverse, range) > (float) GR_SMAQ_LAST_PLAIN) {
        e = gr_next_down(e);
    }
    while (gr_smaq_far(gr_next_up(e), inverse, range) <= (float) GR_SMAQ_LAST_PLAIN) {
        e = gr_next_up(e);
    }
    return __float_as_int(e);
}

// Smaq.statistics (all values) and the limits of Smaq.encode, into p (GR_P_*), from sums[0] the values' sum and
// sums[1] their squares' (ChainSums' order, chains.cu). One thread.
extern "C" __global__ void gr_smaq_moments(const double* sums, long long n, int clamp, int* p) {
    if (blockIdx.x != 0 || threadIdx.x != 0) {
        return;
    }
    double sum = sums[0];
    double squares = sums[1];
    double m = n == 0 ? 0.0 : sum / (double) n;
    double variance = n == 0 ? 0.0 : __dsub_rn(squares / (double) n, __dmul_rn(m, m));
    variance = variance != variance ? variance : variance > 0.0 ? variance : 0.0;
    float mean = (float) m;
    float std = (float) sqrt(variance);
    bool usable = std > 0.0f && std < __int_as_float(0x7F800000)
            && __fdiv_rn(1.0f, std) < __int_as_float(0x7F800000);
    float range = clamp ? GR_SMAQ_CLAMP_RANGE : GR_SMAQ_ESCAPE_RANGE;
    float inverse = usable ? __fdiv_rn(1.0f, std) : 0.0f;
    p[GR_P_MEAN] = (int) gr_header_bits(mean);
    p[GR_P_STD] = (int) gr_header_bits(std);
    p[GR_P_M] = __float_as_int(usable ? mean : 0.0f);
    p[GR_P_INVERSE] = __float_as_int(inverse);
    p[GR_P_LIMIT] = usable ? __float_as_int(std) : 0x7FFFFFFF;
    p[GR_P_ESCAPE_LIMIT] = clamp || !usable ? 0x7FFFFFFF : gr_smaq_escape_limit(inverse, range);
}

// The outliers and escapes of [from, to) (Smaq.scan) and the largest magnitude bits of x − m.
__device__ __forceinline__ void gr_smaq_count(const float* g, long long from, long long to, const int* p,
                                              int* outliers, int* escapes, int* largest) {
    float m = __int_as_float(p[GR_P_M]);
    int limit = p[GR_P_LIMIT];
    int escapeLimit = p[GR_P_ESCAPE_LIMIT];
    int o = 0;
    int q = 0;
    int l = 0;
    for (long long e = from; e < to; e++) {
        int bits = gr_smaq_magnitude_bits(__fsub_rn(g[e], m));
        o += gr_below(limit, bits);
        q += gr_below(escapeLimit, bits);
        l = max(l, bits);
    }
    *outliers = o;
    *escapes = q;
    *largest = l;
}

// A thread's chunk of its tile (gr_thread_chunk), its counts (gr_smaq_count) and the outliers and escapes of the
// tile's threads before it (block scans in `scan`, GR_SMAQ_THREADS ints); every thread of the block must call it.
struct GrSmaqChunk {
    long long from;
    long long to;
    int outliers;
    int escapes;
    int largest;
    int outliersBefore;
    int escapesBefore;
};

__device__ __forceinline__ GrSmaqChunk gr_smaq_thread_chunk(const float* g, long long n, int chunk, const int* p,
                                                           int* scan) {
    GrSmaqChunk c;
    gr_thread_chunk(n, chunk, &c.from, &c.to);
    gr_smaq_count(g, c.from, c.to, p, &c.outliers, &c.escapes, &c.largest);
    c.outliersBefore = gr_block_exclusive_sum(c.outliers, scan);
    c.escapesBefore = gr_block_exclusive_sum(c.escapes, scan);
    return c;
}

// Per tile: its outliers, escapes and largest magnitude bits, into tiles[3·block …].
extern "C" __global__ void gr_smaq_tile_counts(const float* g, long long n, int chunk, const int* p, int* tiles) {
    __shared__ int scan[GR_SMAQ_THREADS];
    GrSmaqChunk c = gr_smaq_thread_chunk(g, n, chunk, p, scan);
    // the largest: thread 0 takes the threads' maximum
    scan[threadIdx.x] = c.largest;
    __syncthreads();
    if (threadIdx.x == 0) {
        int most = 0;
        for (int i = 0; i < (int) blockDim.x; i++) {
            most = max(most, scan[i]);
        }
        tiles[3 * blockIdx.x + 2] = most;
    }
    if (threadIdx.x == blockDim.x - 1) {
        tiles[3 * blockIdx.x] = c.outliersBefore + c.outliers;
        tiles[3 * blockIdx.x + 1] = c.escapesBefore + c.escapes;
    }
}

// One block of GR_SMAQ_THREADS threads: the tiles' outlier and escape counts replaced by their exclusive prefix sums
// (each thread sums a contiguous run of tiles, the runs' sums are scanned, each thread rewrites its run), then thread
// 0 sets W (Smaq.escapeWidth of the largest escaping t) in p and the payload's bits in bits[0].
extern "C" __global__ void gr_smaq_offsets(int* tiles, int count, long long n, int clamp, int* p, long long* bits) {
    __shared__ int scan[GR_SMAQ_THREADS];
    __shared__ int most[GR_SMAQ_THREADS];
    int run = (count + GR_SMAQ_THREADS - 1) / GR_SMAQ_THREADS;
    int from = min(count, (int) threadIdx.x * run);
    int to = min(count, from + run);
    int o = 0;
    int q = 0;
    int l = 0;
    for (int i = from; i < to; i++) {
        o += tiles[3 * i];
        q += tiles[3 * i + 1];
        l = max(l, tiles[3 * i + 2]);
    }
    most[threadIdx.x] = l;
    int oBefore = gr_block_exclusive_sum(o, scan);
    int qBefore = gr_block_exclusive_sum(q, scan);
    for (int i = from; i < to; i++) {
        int co = tiles[3 * i];
        int cq = tiles[3 * i + 1];
        tiles[3 * i] = oBefore;
        tiles[3 * i + 1] = qBefore;
        oBefore += co;
        qBefore += cq;
    }
    if (threadIdx.x != blockDim.x - 1) {
        return;
    }
    // the last thread's running counts are the totals
    long long outliers = oBefore;
    long long escapes = qBefore;
    int largest = 0;
    for (int i = 0; i < (int) blockDim.x; i++) {
        largest = max(largest, most[i]);
    }
    int w = 0;
    if (escapes > 0) {
        float range = clamp ? GR_SMAQ_CLAMP_RANGE : GR_SMAQ_ESCAPE_RANGE;
        float t = gr_smaq_far(__int_as_float(largest), __int_as_float(p[GR_P_INVERSE]), range);
        unsigned reach = (unsigned) (gr_java_int(t) + 1 - GR_SMAQ_LAST_PLAIN);
        while (w < 32 && (reach >> w) != 0u) {
            w++;
        }
    }
    p[GR_P_WIDTH] = w;
    bits[0] = GR_SMAQ_HEADER + 6 * n + 2 * outliers + (long long) w * escapes;
}

// Smaq.record: the record of d = x − μ rounded with the 16-bit uniform u.
__device__ __forceinline__ unsigned gr_smaq_record(float d, float inverse, int limit, int escapeLimit, float range,
                                                   int u) {
    int bits = gr_smaq_magnitude_bits(d);
    int outlier = gr_below(limit, bits);
    int escape = -gr_below(escapeLimit, bits);
    int sign = (int) ((__float_as_uint(d) >> 31) & ((unsigned) -bits >> 31) & (inverse != 0.0f ? 1u : 0u));
    int main = __float_as_int(__fmul_rn(__fmul_rn(fabsf(d), inverse), GR_SMAQ_MAIN_SCALE));
    int farBits = __float_as_int(gr_smaq_far(d, inverse, range));
    float t = __int_as_float(main ^ ((main ^ farBits) & -outlier));
    // Uniform16.floor: (int) ((long) (t·2^16) + u >> 16), wrapping as Java does
    long long scaled = (long long) ((unsigned long long) gr_java_long(__fmul_rn(t, 65536.0f)) + (unsigned long long) u);
    int rounded = (int) (unsigned) (unsigned long long) (scaled >> 16);
    int magnitude = min(rounded, (int) 15 | (int) ((unsigned) -outlier >> 1));
    int plain = outlier | (int) ((unsigned) magnitude << 1) | (int) ((unsigned) sign << (5 + 2 * outlier));
    int escaped = 1 | GR_SMAQ_ESCAPE << 1 | sign << 7 | (int) ((unsigned) (magnitude - GR_SMAQ_LAST_PLAIN) << 8);
    return (unsigned) (plain ^ ((plain ^ escaped) & escape));
}

// Per tile: each value's record into codes[e] and its bit offset into offsets[e], from the tile's offsets
// (gr_smaq_offsets) and a block scan of the threads' counts; value e rounds with its 16-bit uniform, bits
// 48 − 16·(e mod 4) of draw first + e/4 (Uniform16).
extern "C" __global__ void gr_smaq_records(const float* g, long long n, int chunk, int clamp, const int* p,
                                           const int* tiles, unsigned long long key, long long first,
                                           unsigned* codes, long long* offsets) {
    __shared__ int scan[GR_SMAQ_THREADS];
    GrSmaqChunk c = gr_smaq_thread_chunk(g, n, chunk, p, scan);
    long long outliers = tiles[3 * blockIdx.x] + c.outliersBefore;
    long long escapes = tiles[3 * blockIdx.x + 1] + c.escapesBefore;
    float m = __int_as_float(p[GR_P_M]);
    float inverse = __int_as_float(p[GR_P_INVERSE]);
    int limit = p[GR_P_LIMIT];
    int escapeLimit = p[GR_P_ESCAPE_LIMIT];
    long long w = p[GR_P_WIDTH];
    float range = clamp ? GR_SMAQ_CLAMP_RANGE : GR_SMAQ_ESCAPE_RANGE;
    for (long long e = c.from; e < c.to; e++) {
        float d = __fsub_rn(g[e], m);
        int bits = gr_smaq_magnitude_bits(d);
        unsigned long long draw = gr_draw(key, (unsigned long long) (first + (e >> 2)));
        int u = (int) ((draw >> (48 - 16 * (e & 3))) & 0xFFFFULL);
        codes[e] = gr_smaq_record(d, inverse, limit, escapeLimit, range, u);
        offsets[e] = GR_SMAQ_HEADER + 6 * e + 2 * outliers + w * escapes;
        outliers += gr_below(limit, bits);
        escapes += gr_below(escapeLimit, bits);
    }
}

// The width of a record (Smaq.code): 6, 8, or 8 + w when its low 7 bits are all ones.
__device__ __forceinline__ int gr_smaq_width(unsigned c, int w) {
    return 6 + (int) ((c & 1u) << 1) + ((c & 0x7Fu) == 0x7Fu ? w : 0);
}

// The last value e < n whose record starts at or before bit `low` (else 0): a search of the tiles' first offsets
// (every `tile` values: a few KB that all words share in cache) and then of that tile's, where a search of all n
// offsets took each word to a different part of an 8-byte-a-value array, about 24 loads from memory a word.
__device__ __forceinline__ long long gr_smaq_first_record(const long long* offsets, long long n, long long tile,
                                                         long long low) {
    long long tiles = (n + tile - 1) / tile;
    long long first = tile * gr_last_at_most_by(0LL, tiles, low, [&](long long b) { return offsets[b * tile]; });
    return gr_last_at_most_by(first, min(n, first + tile), low, [&](long long e) { return offsets[e]; });
}

// Word k of the payload (bits[0] long): μ, σ, then W and the records that overlap the word; zero past the end. The
// records start at offsets[e], found from the tiles of `tile` values that gr_smaq_records wrote them in.
extern "C" __global__ void gr_smaq_pack(const unsigned* codes, const long long* offsets, long long n, long long tile,
                                        const int* p, const long long* bits, unsigned* words, long long wordCount) {
    long long used = (bits[0] + 31) / 32;
    int w = p[GR_P_WIDTH];
    GR_FOR_EACH(k, wordCount) {
        if (k >= used) {
            continue;
        }
        if (k < 2) {
            words[k] = (unsigned) p[k == 0 ? GR_P_MEAN : GR_P_STD];
            continue;
        }
        long long low = 32 * k;
        unsigned long long word = k == 2 ? (unsigned long long) (w & 0xFF) : 0ULL;
        // the last value whose record starts at or before the word's first bit, else the first value
        for (long long e = gr_smaq_first_record(offsets, n, tile, low); e < n && offsets[e] < low + 32; e++) {
            unsigned c = codes[e];
            int width = gr_smaq_width(c, w);
            unsigned long long record = (unsigned long long) c & ((1ULL << width) - 1ULL);
            long long shift = offsets[e] - low;
            word |= shift >= 0 ? record << shift : record >> -shift;
        }
        words[k] = (unsigned) word;
    }
}

// ±|z| of a record (Smaq.SIGNED and Smaq.escaped): a main record by its 6 bits, an outlier by its 8, an escape (low 7
// bits all ones while w is not 0) by its 8 + w.
__device__ __forceinline__ float gr_smaq_signed(unsigned record, int w) {
    if (w != 0 && (record & 0x7Fu) == 0x7Fu) {
        int e = (int) ((record >> 8) & (unsigned) ((1ULL << w) - 1ULL));
        float a = __fadd_rn(1.0f, __fdiv_rn((float) (GR_SMAQ_LAST_PLAIN + e), GR_SMAQ_OUTLIER_SCALE));
        return (record >> 7 & 1u) == 1u ? -a : a;
    }
    if ((record & 1u) == 0u) {
        unsigned code = record & 63u;
        float a = __fdiv_rn((float) (code >> 1 & 15u), GR_SMAQ_MAIN_SCALE);
        return code >> 5 == 1u ? -a : a;
    }
    unsigned code = record & 255u;
    float a = __fadd_rn(1.0f, __fdiv_rn((float) (code >> 1 & 63u), GR_SMAQ_OUTLIER_SCALE));
    return code >> 7 == 1u ? -a : a;
}

// Worker `worker`'s decoded payload added to the mean of `workers` gradients in `mean` (SimulatedCollective.addToMean
// after Smaq.decode): value e is μ + σ·(±|z|) of its record at bit offsets[e]; worker 0 writes, the others add in
// order, the last multiplies by `inverse` (1f/workers). One thread per value.
extern "C" __global__ void gr_smaq_decode_mean(const unsigned* payload, const long long* offsets, long long n,
                                               int worker, int workers, float inverse, float* mean) {
    float mu = __uint_as_float(payload[0]);
    float sigma = __uint_as_float(payload[1]);
    int w = (int) (payload[2] & 0xFFu);
    GR_FOR_EACH(e, n) {
        long long at = offsets[e];
        unsigned long long pair = (unsigned long long) payload[at >> 5]
                | (unsigned long long) payload[(at >> 5) + 1] << 32;
        unsigned record = (unsigned) (pair >> (at & 31));
        float v = __fadd_rn(mu, __fmul_rn(sigma, gr_smaq_signed(record, w)));
        float m = worker == 0 ? v : __fadd_rn(mean[e], v);
        mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    }
}
