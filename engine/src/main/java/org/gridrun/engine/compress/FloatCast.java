package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.CastFormat;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.random.CounterRng;

/**
 * Casting every value to a narrower float format ({@code fp16}, {@code bf16}, {@code fp8} E5M2) with
 * {@link FloatFormat}: saturating, exact subnormals, NaN kept, rounding stochastic (default) or to nearest even.
 *
 * <p>Wire format: one {@code width}-bit code per value ({@code 16}, {@code 16} or {@code 8}), packed least
 * significant bit first (a 16-bit code is its two bytes, little-endian), so a payload of {@code n} values holds exactly {@code width·n} bits and nothing else. The
 * codes are values on a common scale, so sums are meaningful and the method all-reduces (a real cluster would sum
 * in the narrow format; the simulation sums the decoded values in float32).
 *
 * <p>Stochastic rounding takes 32 random bits per value (two values per 64-bit draw); its state is the position of
 * that stream (24 bytes, written even for nearest rounding, which draws nothing).
 */
public final class FloatCast extends RandomizedCompressor implements DeviceEncodable {
    static final String ROUNDING = "rounding";
    static final List<String> ROUNDINGS = List.of("stochastic", "nearest");

    private final String name;
    private final FloatFormat format;
    private final boolean stochastic;
    /** Whether codes take two bytes (fp16, bf16) rather than one (fp8). */
    private final boolean wide;
    /** Per half ({@link Halves}): a chunk's 32-bit uniforms, for the vector path. */
    private final int[][] uniforms = new int[2][Chunks.SIZE];

    FloatCast(String name, FloatFormat format, boolean stochastic, long seed, long stream) {
        super(seed, stream);
        if (format.width() != 8 && format.width() != 16) {
            throw new IllegalArgumentException("a cast needs an 8- or 16-bit format, found " + format);
        }
        this.wide = format.width() == 16;
        this.name = name;
        this.format = format;
        this.stochastic = stochastic;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put(ROUNDING, stochastic ? "stochastic" : "nearest");
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_REDUCE;
    }

    /** The exact payload size for {@code length} values: {@code width·length}. */
    public long payloadBits(int length) {
        return (long) format.width() * length;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        Payload p = payload(payloadBits(length), 0, length);
        long counter = rng.counter();
        Halves.split(length, Chunks.ALIGN, Halves.worthIt(length),
                (part, from, to) -> encodeRange(gradient, offset, from, to, p.bytes(), counter, part));
        if (stochastic) {
            rng.seek(counter + (length + 1L) / 2);
        }
        return p;
    }

    /**
     * {@inheritDoc} Every cast encodes on a device: the same codes, stochastic rounding taking draw
     * {@code firstDraw + e/2} for value {@code e}, as {@link #encode} does, and moving the stream as far.
     */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        long first = rng.counter();
        if (stochastic) {
            rng.seek(first + (length + 1L) / 2);
        }
        CastFormat cast = new CastFormat(format.exponentBits(), format.mantissaBits(), stochastic, length);
        return Optional.of(new DevicePlan(cast, CounterRng.keyOf(rng.seed(), rng.stream()), first,
                payloadBits(length), 0));
    }

    /**
     * Encodes values {@code [from, to)} of {@code g[offset …]}, {@code from} even, with random draw
     * {@code counter + e/2} for value {@code e} (even: high half, odd: low half). Codes go straight into their
     * bytes: every width here is a whole number of bytes, so the packed stream is each code little-endian.
     */
    private void encodeRange(float[] g, int offset, int from, int to, byte[] bytes, long counter, int part) {
        FloatFormat f = format;
        int e = from;
        if (stochastic && Vectors.enabled && f.fastSpan() >= 0) {
            vectorRange(g, offset, from, to, bytes, counter, part);
            return;
        }
        if (!stochastic) {
            for (; e < to; e++) {
                put(bytes, e, f.encodeNearest(g[offset + e]));
            }
            return;
        }
        for (; e + 1 < to; e += 2) {
            long r = rng.at(counter + (e >>> 1));
            put(bytes, e, f.encode(g[offset + e], r >>> 32));
            put(bytes, e + 1, f.encode(g[offset + e + 1], r & 0xFFFFFFFFL));
        }
        if (e < to) {
            put(bytes, e, f.encode(g[offset + e], rng.at(counter + (e >>> 1)) >>> 32));
        }
    }

    /**
     * {@link #encodeRange}'s stochastic rounding with the Vector API, a chunk at a time: the chunk's 32-bit uniforms
     * from the vector generator ({@code CounterRng.uniforms32}), then whole vectors of codes ({@link VectorFloatCast}),
     * then the tail.
     */
    private void vectorRange(float[] g, int offset, int from, int to, byte[] bytes, long counter, int part) {
        int[] u = uniforms[part];
        for (int e = from; e < to; ) {
            int n = Math.min(Chunks.SIZE, to - e);
            rng.uniforms32(counter, e, u, n);
            for (int j = VectorFloatCast.encode(format, g, offset + e, n, u, bytes, e, wide); j < n; j++) {
                put(bytes, e + j, format.encode(g[offset + e + j], u[j] & 0xFFFFFFFFL));
            }
            e += n;
        }
    }

    /** Stores value {@code e}'s code: one byte, or two little-endian ones for a 16-bit format. */
    private void put(byte[] bytes, int e, int code) {
        if (wide) {
            bytes[2 * e] = (byte) code;
            bytes[2 * e + 1] = (byte) (code >>> 8);
        } else {
            bytes[e] = (byte) code;
        }
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (payload.bits() != payloadBits(length)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + length + " values: " + payload);
        }
        Halves.split(length, Chunks.ALIGN, Halves.worthIt(length),
                (part, from, to) -> decodeRange(payload.bytes(), from, to, out, offset));
    }

    /** Decodes values {@code [from, to)} of a payload into {@code out[offset + …]}. */
    private void decodeRange(byte[] bytes, int from, int to, float[] out, int offset) {
        FloatFormat f = format;
        if (wide) {
            for (int e = from; e < to; e++) {
                out[offset + e] = f.decode(bytes[2 * e] & 0xFF | (bytes[2 * e + 1] & 0xFF) << 8);
            }
        } else {
            for (int e = from; e < to; e++) {
                out[offset + e] = f.decode(bytes[e]);
            }
        }
    }

    @Override
    public Compressor copy(long stream) {
        return new FloatCast(name, format, stochastic, seed, stream);
    }

    /** The {@code rounding} key, shared by every float-format method. */
    static ConfigKey roundingKey(String defaultValue) {
        return new ConfigKey(ROUNDING, ValueType.STRING, defaultValue,
                "stochastic (unbiased, up with probability of the remainder) or nearest (ties to even)");
    }

    /** Whether {@code params} ask for stochastic rounding; anything but the two choices fails naming them. */
    static boolean stochastic(Settings params) {
        return params.oneOf(ROUNDING, ROUNDINGS).equals("stochastic");
    }

    /** What the three casts' providers share: one parameter, all-reduce. */
    abstract static class CastProvider extends MethodProvider {
        private final FloatFormat format;

        CastProvider(String name, FloatFormat format, String summary) {
            super(name, summary, Aggregation.ALL_REDUCE, List.of(roundingKey("stochastic")));
            this.format = format;
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new FloatCast(name(), format, stochastic(params), seed, 0);
        }
    }

    /** Registers {@code fp16}: IEEE half precision, E5M10. */
    public static final class Fp16Provider extends CastProvider {
        public Fp16Provider() {
            super("fp16", FloatFormat.FP16,
                    "IEEE half precision (E5M10), saturating, stochastic or nearest-even rounding: 16 bits per value");
        }
    }

    /** Registers {@code bf16}: bfloat16, E8M7. */
    public static final class Bf16Provider extends CastProvider {
        public Bf16Provider() {
            super("bf16", FloatFormat.BF16,
                    "bfloat16 (E8M7), saturating, stochastic or nearest-even rounding: 16 bits per value");
        }
    }

    /** Registers {@code fp8}: E5M2. */
    public static final class Fp8Provider extends CastProvider {
        public Fp8Provider() {
            super("fp8", FloatFormat.E5M2,
                    "8-bit float E5M2, saturating, stochastic or nearest-even rounding: 8 bits per value");
        }
    }
}
