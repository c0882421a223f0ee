package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.random.CounterRng;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * Casting every value to a narrower float format ({@code fp16}, {@code bf16}, {@code fp8} E5M2) with
 * {@link FloatFormat}: saturating, exact subnormals, NaN kept, rounding stochastic (default) or to nearest even.
 *
 * <p>Wire format: one {@code width}-bit code per value ({@code 16}, {@code 16} or {@code 8}), packed least
 * significant bit first, so a payload of {@code n} values holds exactly {@code width·n} bits and nothing else. The
 * codes are values on a common scale, so sums are meaningful and the method all-reduces (a real cluster would sum
 * in the narrow format; the simulation sums the decoded values in float32).
 *
 * <p>Stochastic rounding takes 32 random bits per value (two values per 64-bit draw); its state is the position of
 * that stream (24 bytes, written even for nearest rounding, which draws nothing).
 */
public final class FloatCast extends RandomizedCompressor {
    static final String ROUNDING = "rounding";
    static final List<String> ROUNDINGS = List.of("stochastic", "nearest");

    private final String name;
    private final FloatFormat format;
    private final boolean stochastic;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();

    FloatCast(String name, FloatFormat format, boolean stochastic, long seed, long stream) {
        super(seed, stream);
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
        Payload p = payload(payloadBits(length), length);
        long counter = rng.counter();
        int split = splitPoint(length);
        if (split > 0) {
            Halves.run(() -> encodeRange(gradient, offset, split, p.bytes(), 0, new BitPacker(), counter),
                    () -> encodeRange(gradient, offset + split, length - split, p.bytes(), split,
                            new BitPacker(), counter + split / 2));
        } else {
            encodeRange(gradient, offset, length, p.bytes(), 0, packer, counter);
        }
        if (stochastic) {
            rng.seek(counter + (length + 1L) / 2);
        }
        return p;
    }

    /**
     * Where a large vector splits in two, 0 for not at all: an even index (values pair up on one draw) whose bit
     * position is a whole byte, so the halves write disjoint bytes.
     */
    private int splitPoint(int length) {
        if (!Halves.worthIt(length) || format.width() % 8 != 0) {
            return 0;
        }
        return length / 2 & ~1;
    }

    /**
     * Encodes {@code g[offset … offset + count)} as values {@code first …} of the payload, with random draw
     * {@code counter + j/2} for the {@code j}-th value of the range ({@code j} even: high half, odd: low half).
     */
    private void encodeRange(float[] g, int offset, int count, byte[] bytes, int first, BitPacker out,
                             long counter) {
        int width = format.width();
        out.reset(bytes, (long) width * first);
        CounterRng random = new CounterRng(seed, stream, counter);
        int end = offset + count;
        int i = offset;
        if (stochastic) {
            for (; i + 1 < end; i += 2) {
                long r = random.nextLong();
                out.write(format.encode(g[i], r >>> 32), width);
                out.write(format.encode(g[i + 1], r & 0xFFFFFFFFL), width);
            }
        }
        for (; i < end; i++) {
            out.write(format.encode(g[i], stochastic ? random.nextLong() >>> 32 : -1L), width);
        }
        out.flush();
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (payload.bits() != payloadBits(length)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + length + " values: " + payload);
        }
        int split = splitPoint(length);
        if (split > 0) {
            Halves.run(() -> decodeRange(payload.bytes(), 0, split, out, offset, new BitReader()),
                    () -> decodeRange(payload.bytes(), split, length - split, out, offset + split, new BitReader()));
        } else {
            decodeRange(payload.bytes(), 0, length, out, offset, reader);
        }
    }

    /** Decodes values {@code first … first + count)} of a payload into {@code out[at …]}. */
    private void decodeRange(byte[] bytes, int first, int count, float[] out, int at, BitReader in) {
        int width = format.width();
        in.reset(bytes, (long) width * first);
        for (int i = 0; i < count; i++) {
            out[at + i] = format.decode(in.read(width));
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
    abstract static class CastProvider implements CompressorProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(roundingKey("stochastic"));

        abstract FloatFormat format();

        @Override
        public Aggregation aggregation() {
            return Aggregation.ALL_REDUCE;
        }

        @Override
        public List<ConfigKey> parameters() {
            return PARAMETERS;
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new FloatCast(name(), format(), stochastic(params), seed, 0);
        }
    }

    /** Registers {@code fp16}: IEEE half precision, E5M10. */
    public static final class Fp16Provider extends CastProvider {
        @Override
        FloatFormat format() {
            return FloatFormat.FP16;
        }

        @Override
        public String name() {
            return "fp16";
        }

        @Override
        public String summary() {
            return "IEEE half precision (E5M10), saturating, stochastic or nearest-even rounding: 16 bits per value";
        }
    }

    /** Registers {@code bf16}: bfloat16, E8M7. */
    public static final class Bf16Provider extends CastProvider {
        @Override
        FloatFormat format() {
            return FloatFormat.BF16;
        }

        @Override
        public String name() {
            return "bf16";
        }

        @Override
        public String summary() {
            return "bfloat16 (E8M7), saturating, stochastic or nearest-even rounding: 16 bits per value";
        }
    }

    /** Registers {@code fp8}: E5M2. */
    public static final class Fp8Provider extends CastProvider {
        @Override
        FloatFormat format() {
            return FloatFormat.E5M2;
        }

        @Override
        public String name() {
            return "fp8";
        }

        @Override
        public String summary() {
            return "8-bit float E5M2, saturating, stochastic or nearest-even rounding: 8 bits per value";
        }
    }
}
