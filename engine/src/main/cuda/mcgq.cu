// MCGQ's payloads on the GPU (CudaMcgqCodec), byte for byte what the CPU encoder (org.gridrun.engine.compress.Mcgq)
// writes for the same uniforms, and their decoding into the workers' mean as the host's collective does.
//
// The draws are points on [0, ‖g‖₁) swept over the running sum of |g|, which Mcgq takes in chunks of 8192 values:
// each chunk's sum sequential from zero, its values offset by the chunks' before it (added in order). So:
//   gr_mcgq_chunks    a thread per chunk: its sum of |g|;
//   gr_mcgq_offsets   one thread: each chunk's offset and ‖g‖₁;
//   gr_mcgq_counts    a thread per chunk: each value's running sum, and how many points lie at or above the one
//                     before it and below its own (searches of the points from the value before's count, the
//                     points computed as the host computes them), and the chunk's count of drawn positions;
//   gr_mcgq_first     one thread: where each chunk's positions start, d and the payload's bits;
//   gr_mcgq_records   a thread per chunk: its positions' records, ascending;
//   gr_mcgq_pack      a thread per 32-bit word: the norm, d and the records' fields that overlap it.
// Decoding reads the payload: every value 0 (NaN for a norm that is not finite), then a thread per record.
#include "gridrun.cuh"

#define GR_MCGQ_CHUNK 8192

// Point j of the sampling (Mcgq.sample): u_j·norm when independent, else (j + u_0)·norm/s.
__device__ __forceinline__ double gr_mcgq_point(long long j, double norm, int draws, int independent,
                                                const double* uniforms) {
    return independent ? __dmul_rn(uniforms[j], norm)
                       : __dmul_rn(__dadd_rn((double) j, uniforms[0]), norm) / (double) draws;
}

// How many points lie below x (the points ascend), given that the first `lo` do: a gallop from lo (steps 1, 2, 4, …)
// to a point at or above x, then halving, so that a running sum that passes few points a value (an eighth, as MCGQ
// draws) takes a step or two a value instead of a whole binary search of the points.
__device__ __forceinline__ long long gr_mcgq_below_from(long long lo, double x, double norm, int draws,
                                                        int independent, const double* uniforms) {
    long long hi = lo;
    for (long long step = 1; hi < draws && gr_mcgq_point(hi, norm, draws, independent, uniforms) < x; step <<= 1) {
        lo = hi + 1;
        hi += step;
    }
    hi = hi < draws ? hi : draws;
    while (lo < hi) {
        long long mid = (lo + hi) >> 1;
        if (gr_mcgq_point(mid, norm, draws, independent, uniforms) < x) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

extern "C" __global__ void gr_mcgq_chunks(const float* g, long long n, double* totals) {
    GR_FOR_EACH(c, (n + GR_MCGQ_CHUNK - 1) / GR_MCGQ_CHUNK) {
        long long from = c * GR_MCGQ_CHUNK;
        long long to = from + GR_MCGQ_CHUNK < n ? from + GR_MCGQ_CHUNK : n;
        double local = 0.0;
        gr_for_ahead<16>(from, to, 1, [&](long long i) { return g[i]; },
                         [&](long long, float v) { local = __dadd_rn(local, (double) fabsf(v)); });
        totals[c] = local;
    }
}

// offsets[c] = the sum of the chunks before c, added in order; norm[0] = ‖g‖₁.
extern "C" __global__ void gr_mcgq_offsets(const double* totals, long long chunks, double* offsets, double* norm) {
    if (blockIdx.x != 0 || threadIdx.x != 0) {
        return;
    }
    double before = 0.0;
    for (long long c = 0; c < chunks; c++) {
        offsets[c] = before;
        before = __dadd_rn(before, totals[c]);
    }
    norm[0] = before;
}

// Each value's count of points, and each chunk's count of drawn positions; all 0 when the norm is 0 or not finite.
extern "C" __global__ void gr_mcgq_counts(const float* g, long long n, const double* offsets, const double* norm,
                                          int draws, int independent, const double* uniforms, int* counts,
                                          int* chunkDrawn) {
    double total = norm[0];
    bool sends = total > 0.0 && total < __longlong_as_double(0x7FF0000000000000LL);
    GR_FOR_EACH(c, (n + GR_MCGQ_CHUNK - 1) / GR_MCGQ_CHUNK) {
        long long from = c * GR_MCGQ_CHUNK;
        long long to = from + GR_MCGQ_CHUNK < n ? from + GR_MCGQ_CHUNK : n;
        double local = 0.0;
        long long previous = sends ? gr_mcgq_below_from(0, offsets[c], total, draws, independent, uniforms) : 0;
        int drawn = 0;
        // the running sum only grows, so each value's count of points below it starts from the value's before
        gr_for_ahead<16>(from, to, 1, [&](long long i) { return g[i]; }, [&](long long i, float v) {
            int count = 0;
            if (sends) {
                local = __dadd_rn(local, (double) fabsf(v));
                long long below = gr_mcgq_below_from(previous, __dadd_rn(offsets[c], local), total, draws,
                                                     independent, uniforms);
                count = (int) (below - previous);
                previous = below;
            }
            counts[i] = count;
            drawn += count > 0 ? 1 : 0;
        });
        chunkDrawn[c] = drawn;
    }
}

// Where each chunk's positions start (first[c]), and sizes[0] = the payload's bits, sizes[1] = d.
extern "C" __global__ void gr_mcgq_first(const int* chunkDrawn, long long chunks, int countWidth, int recordWidth,
                                         long long* first, long long* sizes) {
    if (blockIdx.x != 0 || threadIdx.x != 0) {
        return;
    }
    long long d = 0;
    for (long long c = 0; c < chunks; c++) {
        first[c] = d;
        d += chunkDrawn[c];
    }
    sizes[0] = 32 + countWidth + d * recordWidth;
    sizes[1] = d;
}

// Each chunk's drawn positions, ascending, into the records: index, sign (1 negative), count.
extern "C" __global__ void gr_mcgq_records(const float* g, long long n, const int* counts, const long long* first,
                                           int* indices, int* multiplicities, unsigned char* negatives) {
    GR_FOR_EACH(c, (n + GR_MCGQ_CHUNK - 1) / GR_MCGQ_CHUNK) {
        long long from = c * GR_MCGQ_CHUNK;
        long long to = from + GR_MCGQ_CHUNK < n ? from + GR_MCGQ_CHUNK : n;
        long long k = first[c];
        gr_for_ahead<16>(from, to, 1, [&](long long i) { return counts[i]; }, [&](long long i, int count) {
            if (count > 0) {
                indices[k] = (int) i;
                multiplicities[k] = count;
                negatives[k] = g[i] < 0.0f ? 1 : 0;
                k++;
            }
        });
    }
}

// One thread per 32-bit word: the norm (float32, a NaN as the canonical one), d, then each record's index, sign and
// count − 1, whichever overlap the word; zero past the payload's bits.
extern "C" __global__ void gr_mcgq_pack(unsigned* payload, long long words, const double* norm,
                                        const long long* sizes, int countWidth, int indexWidth,
                                        int multiplicityWidth, const int* indices, const int* multiplicities,
                                        const unsigned char* negatives) {
    long long total = sizes[0];
    long long d = sizes[1];
    int recordWidth = indexWidth + 1 + multiplicityWidth;
    float sent = (float) norm[0];
    unsigned normBits = __float_as_uint(gr_canonical(sent));
    GR_FOR_EACH(w, words) {
        long long lo = 32 * w;
        long long hi = lo + 32 < total ? lo + 32 : total;
        unsigned long long word = 0;
        long long b = lo;
        while (b < hi) {
            long long start;
            int width;
            unsigned value;
            if (b < 32) {
                start = 0;
                width = 32;
                value = normBits;
            } else if (b < 32 + countWidth) {
                start = 32;
                width = countWidth;
                value = (unsigned) d;
            } else {
                long long rel = b - 32 - countWidth;
                long long k = rel / recordWidth;
                long long at = 32 + countWidth + k * recordWidth;
                long long field = rel - k * recordWidth;
                if (field < indexWidth) {
                    start = at;
                    width = indexWidth;
                    value = (unsigned) indices[k];
                } else if (field < indexWidth + 1) {
                    start = at + indexWidth;
                    width = 1;
                    value = negatives[k];
                } else {
                    start = at + indexWidth + 1;
                    width = multiplicityWidth;
                    value = (unsigned) (multiplicities[k] - 1);
                }
            }
            unsigned long long v = width == 32 ? value : value & ((1u << width) - 1u);
            long long shift = start - lo;
            word |= shift >= 0 ? v << shift : v >> -shift;
            b = start + width;
        }
        payload[w] = (unsigned) word;
    }
}

// Every value of the decoded gradient 0, or NaN where the payload's norm is not finite.
extern "C" __global__ void gr_mcgq_clear(const unsigned* payload, long long n, float* out) {
    float norm = __uint_as_float(payload[0]);
    float fill = norm - norm == 0.0f ? 0.0f : __uint_as_float(0x7FC00000u);
    GR_FOR_EACH(i, n) {
        out[i] = fill;
    }
}

// A thread per record of the payload: its value ±(norm/s)·count (Mcgq.decode) at its index.
extern "C" __global__ void gr_mcgq_scatter(const unsigned* payload, long long most, int draws, int countWidth,
                                           int indexWidth, int multiplicityWidth, float* out) {
    long long d = gr_read_bits(payload, 32, countWidth);
    double unit = (double) __uint_as_float(payload[0]) / (double) draws;
    int recordWidth = indexWidth + 1 + multiplicityWidth;
    GR_FOR_EACH(k, most) {
        if (k < d) {
            long long at = 32 + countWidth + k * recordWidth;
            long long index = gr_read_bits(payload, at, indexWidth);
            bool negative = gr_read_bits(payload, at + indexWidth, 1) == 1;
            int count = 1 + (multiplicityWidth > 0 ? (int) gr_read_bits(payload, at + indexWidth + 1,
                                                                            multiplicityWidth) : 0);
            out[index] = (float) __dmul_rn(negative ? -unit : unit, (double) count);
        }
    }
}
