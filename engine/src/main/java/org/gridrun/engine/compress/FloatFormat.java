package org.gridrun.engine.compress;

/**
 * A binary floating-point format of {@code exponentBits} and {@code mantissaBits}, with IEEE 754 layout (sign,
 * biased exponent, fraction; subnormals; all-ones exponent for Inf and NaN): fp16 is E5M10, bf16 E8M7, fp8 E5M2.
 *
 * <p>{@link #encode} turns a float into a {@code 1 + exponentBits + mantissaBits}-bit code and {@link #decode}
 * turns it back. Encoding is saturating: a finite value beyond the largest finite one, and ±Inf, become ±max, never
 * Inf, so a payload never carries an infinity the gradient did not. NaN stays NaN; the sign of zero is kept.
 * Subnormals are exact: a value is a multiple {@code q} of the format's unit in the last place at its magnitude,
 * {@code 2^(max(e, 1 − bias) − mantissaBits)}, and rounding picks {@code floor(q)} or {@code floor(q) + 1}: the nearer,
 * ties to even, or the upper with probability {@code q − floor(q)} (stochastic, unbiased). All arithmetic is exact
 * in double precision, since scaling by a power of two and taking the fraction of a float lose nothing.
 */
public final class FloatFormat {
    /** IEEE half precision, E5M10. */
    public static final FloatFormat FP16 = new FloatFormat(5, 10);
    /** bfloat16, E8M7: float32's range with 8 significant bits. */
    public static final FloatFormat BF16 = new FloatFormat(8, 7);
    /** 8-bit E5M2, fp16's range with 3 significant bits. */
    public static final FloatFormat E5M2 = new FloatFormat(5, 2);

    private final int exponentBits;
    private final int mantissaBits;
    private final int bias;
    private final int minExponent;
    private final double max;
    private final int expMask;
    /** Float32 exponent fields whose values are normal here: {@code [fastLow, fastLow + fastSpan]}; see encode. */
    private final int fastLow;
    private final int fastSpan;
    private final int maxCode;
    /** The value of every code, for widths up to 16; null for wider formats. */
    private final float[] decoded;

    /** A format with {@code exponentBits} in [2, 8] and {@code mantissaBits} in [1, 23]. */
    public FloatFormat(int exponentBits, int mantissaBits) {
        if (exponentBits < 2 || exponentBits > 8) {
            throw new IllegalArgumentException("exponentBits must be in [2, 8], found " + exponentBits);
        }
        if (mantissaBits < 1 || mantissaBits > 23) {
            throw new IllegalArgumentException("mantissaBits must be in [1, 23], found " + mantissaBits);
        }
        this.exponentBits = exponentBits;
        this.mantissaBits = mantissaBits;
        this.bias = (1 << (exponentBits - 1)) - 1;
        this.minExponent = 1 - bias;
        this.expMask = (1 << exponentBits) - 1;
        this.max = Math.scalb(2.0 - Math.scalb(1.0, -mantissaBits), bias);
        this.maxCode = (expMask - 1) << mantissaBits | ((1 << mantissaBits) - 1);
        this.fastLow = 127 + minExponent;
        this.fastSpan = mantissaBits < 23 ? bias - minExponent : -1;
        this.decoded = width() <= 16 ? decodeAll(width()) : null;
    }

    private float[] decodeAll(int width) {
        float[] values = new float[1 << width];
        for (int code = 0; code < values.length; code++) {
            values[code] = decodeSlow(code);
        }
        return values;
    }

    /** The exponent's bits. */
    public int exponentBits() {
        return exponentBits;
    }

    /** The fraction's bits. */
    public int mantissaBits() {
        return mantissaBits;
    }

    /** Bits per code: {@code 1 + exponentBits + mantissaBits}. */
    public int width() {
        return 1 + exponentBits + mantissaBits;
    }

    /** The bits {@link #encode}'s fast path drops from a float32's fraction: {@code 23 − mantissaBits}. */
    int shift() {
        return 23 - mantissaBits;
    }

    /** What the fast path subtracts from the shifted bits to re-bias the exponent. */
    int rebias() {
        return (127 - bias) << mantissaBits;
    }

    /** The float32 exponent fields the fast path takes: {@code [fastLow(), fastLow() + fastSpan()]}. */
    int fastLow() {
        return fastLow;
    }

    int fastSpan() {
        return fastSpan;
    }

    /** The largest finite magnitude code. */
    int maxCode() {
        return maxCode;
    }

    /** The largest finite value. */
    public float max() {
        return (float) max;
    }

    /** The smallest positive (subnormal) value: {@code 2^(1 − bias − mantissaBits)}. */
    public float minSubnormal() {
        return (float) Math.scalb(1.0, minExponent - mantissaBits);
    }

    /** The code of {@code x} rounded to the nearest value, ties to even. */
    public int encodeNearest(float x) {
        return encode(x, -1L);
    }

    /**
     * The code of {@code x}; {@code uniform} in [0, 2^32) rounds stochastically (up when {@code q − floor(q) +
     * uniform/2^32 ≥ 1}), a negative {@code uniform} rounds to nearest, ties to even.
     */
    public int encode(float x, long uniform) {
        int raw = Float.floatToRawIntBits(x);
        int abs = raw & 0x7FFFFFFF;
        if (Integer.compareUnsigned((abs >>> 23) - fastLow, fastSpan) <= 0) {
            return (raw >>> 31) << (exponentBits + mantissaBits) | encodeNormal(abs, uniform);
        }
        return encodeSlow(x, uniform);
    }

    /**
     * The magnitude code of a float32 {@code abs} (sign bit clear) that is normal in this format, in integer
     * arithmetic: the code is the float's bits re-biased and shifted right by {@code 23 − mantissaBits}, a carry out
     * of the fraction moving into the exponent as IEEE layout intends; the bits shifted out are {@code q − floor(q)}
     * exactly, so rounding decides as {@link #encodeSlow} does, and the result saturates at the largest finite code.
     */
    private int encodeNormal(int abs, long uniform) {
        int shift = shift();
        int low = (abs >>> shift) - rebias();
        int rest = abs & ((1 << shift) - 1);
        int up;
        if (uniform < 0) {
            int half = 1 << shift >>> 1;
            up = rest > half || rest == half && (low & 1) == 1 ? 1 : 0;
        } else {
            up = (int) ((((long) rest << (32 - shift)) + uniform) >>> 32);
        }
        return Math.min(low + up, maxCode);
    }

    /** {@link #encode} for any value: NaN, zero, subnormal here or in float32, infinite or beyond the range. */
    private int encodeSlow(float x, long uniform) {
        int sign = Float.floatToRawIntBits(x) < 0 ? 1 << (exponentBits + mantissaBits) : 0;
        if (Float.isNaN(x)) {
            return (expMask << mantissaBits) | (1 << (mantissaBits - 1));
        }
        double a = Math.min(Math.abs((double) x), max);
        if (a == 0) {
            return sign;
        }
        int unitExponent = Math.max(Math.getExponent(a), minExponent) - mantissaBits;
        double q = Math.scalb(a, -unitExponent);
        double low = Math.floor(q);
        double fraction = q - low;
        boolean up = uniform < 0 ? fraction > 0.5 || fraction == 0.5 && (((long) low) & 1) == 1
                : fraction + uniform * 0x1.0p-32 >= 1.0;
        double rounded = Math.min(Math.scalb(up ? low + 1 : low, unitExponent), max);
        return sign | magnitudeCode(rounded);
    }

    private int magnitudeCode(double v) {
        if (v == 0) {
            return 0;
        }
        int e = Math.getExponent(v);
        if (e < minExponent) {
            return (int) Math.scalb(v, mantissaBits - minExponent);
        }
        int fraction = (int) (Math.scalb(v, mantissaBits - e) - (1 << mantissaBits));
        return (e + bias) << mantissaBits | fraction;
    }

    /** The value of {@code code} (its low {@link #width()} bits). */
    public float decode(int code) {
        if (decoded != null) {
            return decoded[code & (decoded.length - 1)];
        }
        return decodeSlow(code);
    }

    private float decodeSlow(int code) {
        int fraction = code & ((1 << mantissaBits) - 1);
        int field = (code >>> mantissaBits) & expMask;
        boolean negative = ((code >>> (exponentBits + mantissaBits)) & 1) != 0;
        double v;
        if (field == expMask) {
            v = fraction == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (field == 0) {
            v = Math.scalb((double) fraction, minExponent - mantissaBits);
        } else {
            v = Math.scalb((double) ((1 << mantissaBits) | fraction), field - bias - mantissaBits);
        }
        return (float) (negative ? -v : v);
    }

    @Override
    public String toString() {
        return "E" + exponentBits + "M" + mantissaBits;
    }
}
