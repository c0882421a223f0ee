package org.gridrun.engine.compress;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.NaturalFormat;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.random.CounterRng;

/**
 * Natural compression: every value is rounded stochastically, without bias, to one of the two powers of two around
 * it, keeping its sign; no buckets, no norms.
 *
 * <p>A value {@code x} with {@code 2^e ≤ |x| < 2^(e+1)} becomes {@code 2^(e+1)} with probability
 * {@code (|x| − 2^e)/2^e}, which is its float32 mantissa over {@code 2^23}, and {@code 2^e} otherwise; the variance
 * is at most {@code x²/8}. Below the smallest normal float, {@code 2^-126}, it rounds between zero and
 * {@code 2^-126} the same way. At the top, {@code |x| ≥ 2^127} stays {@code 2^127} (float32 has no {@code 2^128}),
 * the one biased case.
 *
 * <p>Wire format: 9 bits per value, packed by {@link BitPacker}: the sign in the low bit, then the float32 biased
 * exponent (1 … 254 for {@code 2^(E−127)}), with exponent 0 reserved for zero and 255 for a value that is not
 * finite (decoded as NaN). A payload of {@code n} values is exactly {@code 9·n} bits. Each 64-bit random draw
 * decides two values. Its only state is the position of its random stream (24 bytes). It also encodes on a device
 * ({@link #planDeviceEncode}, {@link NaturalFormat}), with the same draws.
 */
public final class NaturalCompression extends RandomizedCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "natural";

    /** Bits per value: a sign and an 8-bit exponent. */
    public static final int BITS = 9;

    private static final int MANTISSA = 0x7FFFFF;

    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();

    NaturalCompression(long seed, long stream) {
        super(seed, stream);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        return Map.of();
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        Payload p = payload((long) BITS * length, 0, length);
        packer.reset(p.bytes(), 0);
        int i = offset;
        int end = offset + length;
        for (; i + 1 < end; i += 2) {
            long r = rng.nextLong();
            int first = code(gradient[i], (int) (r >>> 41));
            int second = code(gradient[i + 1], (int) (r >>> 18) & MANTISSA);
            packer.write(first | second << BITS, 2 * BITS);
        }
        if (i < end) {
            packer.write(code(gradient[i], (int) (rng.nextLong() >>> 41)), BITS);
        }
        packer.flush();
        return p;
    }

    /** {@inheritDoc} The same draws as {@link #encode}: one for every two values. */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        long first = rng.counter();
        rng.seek(first + (length + 1L) / 2);
        return Optional.of(new DevicePlan(new NaturalFormat(length), CounterRng.keyOf(rng.seed(), rng.stream()),
                first, (long) BITS * length, 0));
    }

    /**
     * The code of {@code x} for a 23-bit uniform {@code u}: the exponent goes up by one when {@code u} is below the
     * mantissa, which happens with probability mantissa/2^23; a subnormal's exponent 0 goes up to 1 the same way.
     * Without a branch: the draw is random, so a branch on it would be mispredicted every other value. Both operands
     * of each subtraction lie in [0, 2^23) or [0, 255], so its sign bit is the comparison.
     */
    static int code(float x, int u) {
        int raw = Float.floatToRawIntBits(x);
        int sign = raw >>> 31;
        int exponent = raw >>> 23 & 0xFF;
        int up = (u - (raw & MANTISSA)) >>> 31 & (exponent - 254) >>> 31;
        return sign | (exponent + up) << 1;
    }

    /** The value of a code: {@code ±2^(E−127)}, zero for exponent 0, NaN for 255. */
    static float value(int code) {
        int exponent = code >>> 1;
        if (exponent == 255) {
            return Float.NaN;
        }
        return Float.intBitsToFloat((code & 1) << 31 | exponent << 23);
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (payload.bits() != (long) BITS * length) {
            throw new IllegalArgumentException("not a " + this + " payload of " + length + " values: " + payload);
        }
        reader.reset(payload.bytes(), 0);
        int i = offset;
        int end = offset + length;
        for (; i + 1 < end; i += 2) {
            int pair = reader.read(2 * BITS);
            out[i] = value(pair & (1 << BITS) - 1);
            out[i + 1] = value(pair >>> BITS);
        }
        if (i < end) {
            out[i] = value(reader.read(BITS));
        }
    }

    @Override
    public Compressor copy(long stream) {
        return new NaturalCompression(seed, stream);
    }

    /** Registers {@code natural}; it has no parameters. */
    public static final class Provider extends MethodProvider {
        public Provider() {
            super(NAME, "natural compression: unbiased stochastic rounding to signed powers of two, 9 bits per value",
                    Aggregation.ALL_GATHER, List.of());
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new NaturalCompression(seed, 0);
        }
    }
}
