// Casts to a narrower float on the GPU (CudaCastCodec): the payloads of fp16 (E5M10), bf16 (E8M7) and fp8 (E5M2),
// byte for byte what the CPU encoder (org.gridrun.engine.compress.FloatCast with FloatFormat) writes for the same
// random stream, and their decoding into the workers' mean as the host's collective does.
//
// The payload is one code per value, 8 or 16 bits, each code's bytes little-endian (the GPU's order). One thread per
// value writes its own code; nothing is shared. Stochastic rounding gives value e the 32-bit uniform of draw
// first + e/2: its high half for even e, its low half for odd e (FloatCast.encodeRange).
#include "gridrun.cuh"

// 2^-s as a double, exactly, for s >= 0 (a product of powers of two, each exact).
__device__ __forceinline__ double gr_pow2_neg(int s) {
    double r = 1.0;
    for (; s > 62; s -= 62) {
        r = __dmul_rn(r, 1.0 / (double) (1ULL << 62));
    }
    return __dmul_rn(r, 1.0 / (double) (1ULL << s));
}

// The code of x in the format E{eb}M{mb} (FloatFormat.encode): `uniform` in [0, 2^32) rounds stochastically, a
// negative one to nearest, ties to even. A float that is normal in the format rounds in integers (encodeNormal):
// its bits re-biased and shifted, the shifted-out bits deciding, saturating at the largest finite code. The rest
// (encodeSlow): NaN gives the format's quiet NaN without a sign, ±0 keeps its sign, anything beyond the range and
// ±∞ give ±max, and a value below the normal range is q = |x|·2^(mb − minExponent) units, q < 2^mb, rounded to
// floor(q) or floor(q) + 1 with fraction(q) in double, as the host does.
__device__ __forceinline__ unsigned gr_cast_code(float x, int eb, int mb, long long uniform) {
    int bias = (1 << (eb - 1)) - 1;
    int minExponent = 1 - bias;
    int expMask = (1 << eb) - 1;
    int maxCode = (expMask - 1) << mb | ((1 << mb) - 1);
    unsigned raw = __float_as_uint(x);
    unsigned abs = raw & 0x7FFFFFFFu;
    unsigned sign = (raw >> 31) << (eb + mb);
    int field = (int) (abs >> 23);
    if ((unsigned) (field - (127 + minExponent)) <= (unsigned) (bias - minExponent)) {
        int shift = 23 - mb;
        int low = (int) (abs >> shift) - ((127 - bias) << mb);
        int rest = (int) (abs & ((1u << shift) - 1u));
        int up;
        if (uniform < 0) {
            int half = (1 << shift) >> 1;
            up = rest > half || (rest == half && (low & 1) == 1) ? 1 : 0;
        } else {
            up = (int) ((((unsigned long long) rest << (32 - shift)) + (unsigned long long) uniform) >> 32);
        }
        return sign | (unsigned) min(low + up, maxCode);
    }
    if (x != x) {
        return (unsigned) (expMask << mb | 1 << (mb - 1));
    }
    if (abs == 0) {
        return sign;
    }
    if (field > 127 + bias) {
        return sign | (unsigned) maxCode;
    }
    // below the normal range: abs = mantissa·2^(max(field, 1) − 150), so q = mantissa·2^-s
    long long mantissa = field == 0 ? abs : (abs & 0x7FFFFFu) | 0x800000u;
    int s = 150 - max(field, 1) - mb + minExponent;
    long long low = s >= 63 ? 0 : mantissa >> s;
    long long rest = s >= 63 ? mantissa : mantissa & ((1LL << s) - 1);
    double fraction = __dmul_rn((double) rest, gr_pow2_neg(s));
    bool up = uniform < 0 ? fraction > 0.5 || (fraction == 0.5 && (low & 1) == 1)
                          : __dadd_rn(fraction, __dmul_rn((double) uniform, 0x1p-32)) >= 1.0;
    return sign | (unsigned) (low + (up ? 1 : 0));
}

// The float32 of code c of E{eb}M{mb} (FloatFormat.decode): ±∞ and NaN (the quiet NaN, signed) from the all-ones
// exponent, a subnormal as fraction·2^(minExponent − mb), a normal one by moving its fields into float32's.
__device__ __forceinline__ float gr_cast_value(unsigned c, int eb, int mb) {
    int bias = (1 << (eb - 1)) - 1;
    int expMask = (1 << eb) - 1;
    unsigned fraction = c & ((1u << mb) - 1u);
    int field = (int) ((c >> mb) & (unsigned) expMask);
    unsigned sign = ((c >> (eb + mb)) & 1u) << 31;
    if (field == expMask) {
        return __uint_as_float(sign | (fraction == 0 ? 0x7F800000u : 0x7FC00000u));
    }
    if (field == 0) {
        float magnitude = (float) __dmul_rn((double) fraction, gr_pow2_neg(mb - (1 - bias)));
        return __uint_as_float(sign | __float_as_uint(magnitude));
    }
    return __uint_as_float(sign | (unsigned) (field - bias + 127) << 23 | fraction << (23 - mb));
}

// The codes of the n floats of g (gr_cast_code), 16-bit ones as unsigned shorts, 8-bit ones as bytes; stochastic
// rounding (stochastic = 1) with the draws of key from position first.
extern "C" __global__ void gr_cast_codes(const float* g, long long n, int eb, int mb, int stochastic,
                                         unsigned long long key, long long first, unsigned char* payload) {
    bool wide = 1 + eb + mb == 16;
    GR_FOR_EACH(e, n) {
        long long uniform = -1;
        if (stochastic) {
            unsigned long long draw = gr_draw(key, (unsigned long long) (first + (e >> 1)));
            uniform = (long long) ((e & 1) == 0 ? draw >> 32 : draw & 0xFFFFFFFFULL);
        }
        unsigned code = gr_cast_code(g[e], eb, mb, uniform);
        if (wide) {
            ((unsigned short*) payload)[e] = (unsigned short) code;
        } else {
            payload[e] = (unsigned char) code;
        }
    }
}

// Worker `worker`'s decoded payload added to the mean of `workers` gradients in `mean`
// (SimulatedCollective.addToMean after FloatCast.decode): worker 0 writes, the others add in order, the last
// multiplies by `inverse` (1f/workers). One thread per value.
extern "C" __global__ void gr_cast_decode_mean(const unsigned char* payload, long long n, int eb, int mb, int worker,
                                               int workers, float inverse, float* mean) {
    bool wide = 1 + eb + mb == 16;
    GR_FOR_EACH(e, n) {
        unsigned code = wide ? ((const unsigned short*) payload)[e] : payload[e];
        float v = gr_cast_value(code, eb, mb);
        float m = worker == 0 ? v : __fadd_rn(mean[e], v);
        mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Natural compression (CudaNaturalCodec; org.gridrun.engine.compress.NaturalCompression): each value rounded without
// bias to one of the two signed powers of two around it, its 9-bit code (the sign, then the float's biased exponent)
// packed at bit 9e. Value e takes a 23-bit uniform of draw first + e/2: bits 41..63 for even e, 18..40 for odd e.

// The code of value e of g (NaturalCompression.code): its exponent goes up by one when the uniform is below its
// mantissa; exponents 254 and 255 stay.
__device__ __forceinline__ unsigned gr_natural_code(const float* g, long long e, unsigned long long key,
                                                    unsigned long long first) {
    unsigned long long draw = gr_draw(key, first + (unsigned long long) (e >> 1));
    unsigned u = (e & 1) == 0 ? (unsigned) (draw >> 41) : (unsigned) (draw >> 18) & 0x7FFFFFu;
    unsigned raw = __float_as_uint(g[e]);
    unsigned exponent = raw >> 23 & 0xFFu;
    if (exponent < 254 && u < (raw & 0x7FFFFFu)) {
        exponent++;
    }
    return raw >> 31 | exponent << 1;
}

// One thread per 32-bit word of the payload: the codes that overlap it.
extern "C" __global__ void gr_natural_pack(const float* g, long long n, unsigned long long key,
                                           unsigned long long first, unsigned* payload, long long words) {
    GR_FOR_EACH(w, words) {
        payload[w] = gr_stream_word(32 * w, n, 9, [&](long long e) { return gr_natural_code(g, e, key, first); });
    }
}

// Each value's code read back (±2^(E−127), zero for exponent 0, NaN for 255; NaturalCompression.value) and added to
// the mean of `workers` payloads as gr_add_to_mean adds.
extern "C" __global__ void gr_natural_decode_mean(const unsigned* payload, long long n, int worker, int workers,
                                                  float inverse, float* mean) {
    GR_FOR_EACH(e, n) {
        unsigned code = gr_read_bits(payload, 9 * e, 9);
        unsigned exponent = code >> 1;
        float v = exponent == 255 ? __uint_as_float(0x7FC00000u) : __uint_as_float((code & 1u) << 31 | exponent << 23);
        float m = worker == 0 ? v : __fadd_rn(mean[e], v);
        mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// S2FP8 (CudaS2fp8Codec; org.gridrun.engine.compress.FloatShiftSqueeze): per tensor a squeeze α and shift β as
// float32 (all tensors first), then one E5M2 code per value of sign(x)·2^(α·log2|x| + β). Logarithms and powers are
// Log2's, from its tables (`tables`: log2 c, 1/c and 2^(i/1024) for the 1024 entries, then ln 2 and 1/ln 2), each
// double operation rounded as Java rounds it.

#define GR_LOG2_SIZE 1024

// Log2.log2 of a positive double.
__device__ __forceinline__ double gr_log2(double x, const double* tables) {
    unsigned long long bits = (unsigned long long) __double_as_longlong(x);
    int e = (int) (bits >> 52) - 1023;
    int i = (int) (bits >> 42) & (GR_LOG2_SIZE - 1);
    double m = __longlong_as_double((long long) ((bits & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL));
    double t = __dsub_rn(__dmul_rn(m, tables[GR_LOG2_SIZE + i]), 1.0);
    double series = __dmul_rn(t, __dsub_rn(1.0, __dmul_rn(t, __dsub_rn(0.5, __dmul_rn(t, __dsub_rn(1.0 / 3,
                                                                                                    __dmul_rn(t, 0.25)))))));
    return __dadd_rn(__dadd_rn((double) e, tables[i]), __dmul_rn(series, tables[3 * GR_LOG2_SIZE + 1]));
}

// Log2.exp2: 2^z (where the result leaves the double range only its float cast is used, which is 0 or ∞ either way).
__device__ __forceinline__ double gr_exp2(double z, const double* tables) {
    if (!(z > -1100.0 && z < 1100.0)) {
        return z != z ? z : z > 0 ? __longlong_as_double(0x7FF0000000000000LL) : 0.0;
    }
    double n = floor(z);
    double f = __dmul_rn(__dsub_rn(z, n), (double) GR_LOG2_SIZE);
    int i = min((int) f, GR_LOG2_SIZE - 1);  // z − n rounds to 1 for z in (−2^-54, 0): n = −1, f = 1024
    double y = __dmul_rn(__dsub_rn(f, (double) i), tables[3 * GR_LOG2_SIZE] / GR_LOG2_SIZE);
    double series = __dadd_rn(1.0, __dmul_rn(y, __dadd_rn(1.0, __dmul_rn(y, __dadd_rn(0.5, __dmul_rn(y,
            __dadd_rn(1.0 / 6, __dmul_rn(y, 1.0 / 24))))))));
    double v = __dmul_rn(tables[2 * GR_LOG2_SIZE + i], series);
    int exponent = (int) n;
    if (exponent > -1022 && exponent < 1023) {
        return __dmul_rn(v, __longlong_as_double((long long) (exponent + 1023) << 52));
    }
    return scalbn(v, exponent);
}

// Per tensor (a block of GR_CHAINS threads, looping): α and β from the mean of log2|x| over its nonzero finite values
// (ChainSums' chains and tree) and the log2 of its largest magnitude, into the payload's header words 2t and 2t + 1.
extern "C" __global__ void __launch_bounds__(GR_CHAINS) gr_s2fp8_fit(const float* g, const int* bounds, int tensors,
                                                                    const double* tables, unsigned* payload) {
    __shared__ double sums[GR_CHAINS];
    __shared__ int counts[GR_CHAINS];
    __shared__ int largest[GR_CHAINS];
    int j = threadIdx.x;
    for (int t = blockIdx.x; t < tensors; t += gridDim.x) {
        double chain = 0.0;
        int count = 0;
        int most = 0;
        // sixteen of the chain's loads in flight: one at a time, a tensor of 2.4 M values (18,000 a chain) waited
        // for each load in turn
        gr_for_ahead<16>(bounds[t] + j, bounds[t + 1], GR_CHAINS, [&](long long i) { return g[i]; },
                         [&](long long, float v) {
            int abs = __float_as_int(v) & 0x7FFFFFFF;
            if (abs != 0 && abs < 0x7F800000) {
                chain = __dadd_rn(chain, gr_log2((double) __int_as_float(abs), tables));
                most = max(most, abs);
                count++;
            }
        });
        counts[j] = count;
        largest[j] = most;
        sums[j] = chain;
        double sum = gr_chain_sum(sums);
        if (j == 0) {
            int total = 0;
            int top = 0;
            for (int k = 0; k < GR_CHAINS; k++) {
                total += counts[k];
                top = max(top, largest[k]);
            }
            double mean = total == 0 ? 0.0 : sum / (double) total;
            double high = total == 0 ? 0.0 : gr_log2((double) __int_as_float(top), tables);
            double alpha = total == 0 || high <= mean ? 1.0 : 15.0 / __dsub_rn(high, mean);
            payload[2 * t] = __float_as_uint((float) alpha);
            payload[2 * t + 1] = __float_as_uint((float) (total == 0 ? 0.0 : __dmul_rn(-alpha, mean)));
        }
        __syncthreads();
    }
}

// Each value's E5M2 code of sign(x)·2^(α·log2|x| + β) (zero and NaN unchanged) after the header, rounded with the
// 32-bit uniform of draw first + e/2 where stochastic, else to nearest.
extern "C" __global__ void gr_s2fp8_codes(const float* g, long long n, const int* bounds, int tensors,
                                          const double* tables, int stochastic, unsigned long long key,
                                          unsigned long long first, unsigned char* payload) {
    const unsigned* header = (const unsigned*) payload;
    unsigned char* codes = payload + 8LL * tensors;
    GR_FOR_EACH(e, n) {
        int t = gr_last_at_most(bounds, 0, tensors, e);
        double alpha = (double) __uint_as_float(header[2 * t]);
        double beta = (double) __uint_as_float(header[2 * t + 1]);
        float x = g[e];
        float shifted = x;
        if (!(x == 0.0f || x != x)) {
            float m = (float) gr_exp2(__dadd_rn(__dmul_rn(alpha, gr_log2((double) fabsf(x), tables)), beta), tables);
            shifted = x < 0.0f ? -m : m;
        }
        long long uniform = -1;
        if (stochastic) {
            unsigned long long draw = gr_draw(key, first + (unsigned long long) (e >> 1));
            uniform = (long long) ((e & 1) == 0 ? draw >> 32 : draw & 0xFFFFFFFFULL);
        }
        codes[e] = (unsigned char) gr_cast_code(shifted, 5, 2, uniform);
    }
}

// Per tensor, one thread per code: the decoded value sign·2^((log2|v| − β)/α) of each of the 256 E5M2 codes.
extern "C" __global__ void gr_s2fp8_tables(const unsigned char* payload, int tensors, const double* tables,
                                           float* decoded) {
    const unsigned* header = (const unsigned*) payload;
    GR_FOR_EACH(k, 256LL * tensors) {
        long long t = k >> 8;
        float v = gr_cast_value((unsigned) (k & 255), 5, 2);
        double alpha = (double) __uint_as_float(header[2 * t]);
        double beta = (double) __uint_as_float(header[2 * t + 1]);
        float m = v == 0.0f || v != v ? v
                : (float) gr_exp2(__dsub_rn(gr_log2((double) fabsf(v), tables), beta) / alpha, tables);
        decoded[k] = v < 0.0f ? -m : m;
    }
}

// Worker `worker`'s payload added to the mean of `workers` gradients, each code read through its tensor's table.
extern "C" __global__ void gr_s2fp8_decode_mean(const unsigned char* payload, long long n, const int* bounds,
                                                int tensors, const float* decoded, int worker, int workers,
                                                float inverse, float* mean) {
    const unsigned char* codes = payload + 8LL * tensors;
    GR_FOR_EACH(e, n) {
        int t = gr_last_at_most(bounds, 0, tensors, e);
        float v = decoded[256LL * t + codes[e]];
        float m = worker == 0 ? v : __fadd_rn(mean[e], v);
        mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    }
}
