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
        long long bit = 9 * e;
        unsigned long long window = payload[bit >> 5];
        if (((bit & 31) + 9) > 32) {
            window |= (unsigned long long) payload[(bit >> 5) + 1] << 32;
        }
        unsigned code = (unsigned) (window >> (bit & 31)) & 0x1FFu;
        unsigned exponent = code >> 1;
        float v = exponent == 255 ? __uint_as_float(0x7FC00000u) : __uint_as_float((code & 1u) << 31 | exponent << 23);
        float m = worker == 0 ? v : __fadd_rn(mean[e], v);
        mean[e] = worker == workers - 1 ? __fmul_rn(m, inverse) : m;
    }
}
