package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    private final Chunks chunks = new Chunks();

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
        Halves.split(length, Chunks.ALIGN, Halves.worthIt(length),
                (part, from, to) -> encodeRange(gradient, offset, from, to, p.bytes(), part, counter));
        if (stochastic) {
            rng.seek(counter + (length + 1L) / 2);
        }
        return p;
    }

    /**
     * Encodes values {@code [from, to)} of {@code g[offset …]}, {@code from} even, with random draw
     * {@code counter + e/2} for value {@code e} (even: high half, odd: low half).
     */
    private void encodeRange(float[] g, int offset, int from, int to, byte[] bytes, int part, long counter) {
        int width = format.width();
        BitPacker out = chunks.packer(part, bytes, (long) width * from);
        int[] codes = chunks.codes(part);
        for (int e = from; e < to; e += Chunks.SIZE) {
            int n = Math.min(Chunks.SIZE, to - e);
            int at = offset + e;
            if (stochastic) {
                int j = 0;
                for (; j + 1 < n; j += 2) {
                    long r = rng.at(counter + ((e + j) >>> 1));
                    codes[j] = format.encode(g[at + j], r >>> 32);
                    codes[j + 1] = format.encode(g[at + j + 1], r & 0xFFFFFFFFL);
                }
                if (j < n) {
                    codes[j] = format.encode(g[at + j], rng.at(counter + ((e + j) >>> 1)) >>> 32);
                }
            } else {
                for (int j = 0; j < n; j++) {
                    codes[j] = format.encodeNearest(g[at + j]);
                }
            }
            out.writeAll(codes, n, width);
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
        Halves.split(length, Chunks.ALIGN, Halves.worthIt(length),
                (part, from, to) -> decodeRange(payload.bytes(), from, to, out, offset, part));
    }

    /** Decodes values {@code [from, to)} of a payload into {@code out[offset + …]}. */
    private void decodeRange(byte[] bytes, int from, int to, float[] out, int offset, int part) {
        int width = format.width();
        BitReader in = chunks.reader(part, bytes, (long) width * from);
        int[] codes = chunks.codes(part);
        for (int e = from; e < to; e += Chunks.SIZE) {
            int n = Math.min(Chunks.SIZE, to - e);
            in.readAll(codes, n, width);
            int at = offset + e;
            for (int j = 0; j < n; j++) {
                out[at + j] = format.decode(codes[j]);
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
