package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.SmaqFormat;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;
import org.gridrun.engine.random.CounterRng;

/**
 * SmaQ: values are standardised by the vector's mean and standard deviation; those within one deviation get a
 * 6-bit code, the outliers an 8-bit one, each rounded stochastically, and outliers beyond the 8-bit code's reach an
 * escape.
 *
 * <p>With {@code μ} and {@code σ} (population standard deviation) of the whole vector, or of {@code num_samples}
 * values drawn uniformly with replacement when {@code num_samples > 0}, each value has {@code z = (x − μ)/σ}.
 * A {@code b}-bit code is a flag bit, {@code b − 2} magnitude bits and a sign bit, with scale
 * {@code (2^(b−2) − 1)/range}:
 * <ul>
 *   <li>{@code |z| ≤ 1}: flag 0, 6 bits, magnitude {@code m = |z|·15} (range 1, scale 15);</li>
 *   <li>{@code |z| > 1}: flag 1, 8 bits, magnitude {@code m = (|z| − 1)·42} (range 1.5, scale 63/1.5 = 42).</li>
 * </ul>
 * The magnitude is rounded stochastically to a neighbouring integer, without bias, and decodes to
 * {@code μ ± σ·|z|}. An outlier whose {@code t = (|z| − 1)·42} exceeds 62, that is {@code |z| > 1 + 62/42 ≈ 2.48},
 * cannot be held in 6 magnitude bits. With {@code outliers: escape} (the default) it is sent on the same grid, without
 * bias: its 8-bit code carries the reserved magnitude 63 and is followed by {@code e = ⌊t + u⌋ − 62} in {@code W}
 * bits, where {@code W} is the width of the largest {@code e} the vector can produce, and it decodes to
 * {@code 1 + (62 + e)/42}; values far past {@code |z| ≈ 4·10^5} (possible only with sampled statistics) saturate
 * there. With {@code outliers: clamp} such values are rounded as if {@code |z|} were 2.5 (magnitude at most 63), as
 * the SmaQ paper describes: biased for heavy tails, kept only to reproduce it. A zero or non-finite {@code σ}, or one
 * too small to invert in float, encodes every value as {@code z = 0} (decoding to {@code μ}).
 *
 * <p>Wire format: {@code μ} and {@code σ} as float32 and {@code W} in 8 bits (72 bits; {@code W = 0} when nothing
 * escapes, always with {@code clamp}), then one record per value in order, packed bit by bit least significant bit
 * first: the flag, then the magnitude, then the sign (1 for negative), then for an escape its {@code W} bits. A
 * payload of {@code n} values with {@code k} outliers of which {@code q} escape holds exactly
 * {@code 72 + 6(n − k) + 8k + W·q} bits, so its length varies with the data and a new payload is allocated whenever
 * it changes; the 72 header bits are its side bits. Statistics are per worker: payloads are gathered.
 *
 * <p>State: the position of its random stream (24 bytes). Rounding takes one 16-bit uniform per value, four per
 * 64-bit draw, unbiased to {@code 2^-16} of a step ({@link Uniform16}).
 */
public final class Smaq extends RandomizedCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "smaq";
    /** The {@code outliers} choices: escapes beyond the 8-bit code's reach, or the paper's clamp at 2.5. */
    static final List<String> OUTLIERS = List.of("escape", "clamp");

    /** The header's bits: μ, σ and the escape width {@code W}. */
    static final int HEADER = SmaqFormat.HEADER_BITS;
    private static final int MAIN_SCALE = 15;
    private static final int OUTLIER_SCALE = 42;
    /** The largest outlier magnitude a plain 8-bit code holds; above it an escape follows (code 63). */
    private static final int LAST_PLAIN = 62;
    private static final int ESCAPE = 63;
    /** How far {@code |z| − 1} reaches: 1.5 when clamping, else where escapes saturate ({@code e < 2^24}). */
    private static final float CLAMP_RANGE = 1.5f;
    private static final float ESCAPE_RANGE = 0x1.0p24f / OUTLIER_SCALE;

    private static final float[] SIGNED = signedMagnitudes();

    private final int numSamples;
    private final boolean clamp;
    private final float range;
    private final Chunks chunks = new Chunks();
    private final int[][] widths = new int[2][Chunks.SIZE];
    /** Per part of the scan: outliers, escapes and the largest escape's {@code t}. */
    private final int[] outliers = new int[2];
    private final int[] escapes = new int[2];
    private final int[] farthest = new int[2];
    /** Per part, what {@link VectorMoments#outliers} counted: outliers, escapes, largest magnitude bits. */
    private final int[][] scanned = new int[2][3];
    private final double[] sums = new double[2];
    private float mean;
    private float std;
    /** The latest payload, its escape width, and where its second half starts (value and bit). */
    private Payload encoded;
    private int escapeWidth;
    private int secondValue;
    private long secondStart;

    Smaq(int numSamples, boolean clamp, long seed, long stream) {
        super(seed, stream);
        this.numSamples = numSamples;
        this.clamp = clamp;
        this.range = clamp ? CLAMP_RANGE : ESCAPE_RANGE;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("num_samples", (long) numSamples);
        config.put("outliers", clamp ? "clamp" : "escape");
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        statistics(gradient, offset, length);
        // a σ so small that 1/σ overflows is as unusable as a zero one (its z would all be infinite)
        boolean usable = std > 0f && Float.isFinite(std) && Float.isFinite(1f / std);
        float m = usable ? mean : 0f;
        float inverse = usable ? 1f / std : 0f;
        int limit = usable ? Float.floatToRawIntBits(std) : Integer.MAX_VALUE;
        int escapeLimit = clamp || !usable ? Integer.MAX_VALUE : escapeLimit(inverse);
        int mid = Halves.middle(length, Chunks.ALIGN);
        boolean split = Halves.worthIt(length);
        java.util.Arrays.fill(outliers, 0);
        java.util.Arrays.fill(escapes, 0);
        java.util.Arrays.fill(farthest, 0);
        Halves.run(mid, length, split, (part, from, to) -> scan(gradient, offset + from, offset + to, m, limit,
                escapeLimit, part));
        int w = escapes[0] + escapes[1] == 0 ? 0
                : escapeWidth(far(Float.intBitsToFloat(Math.max(farthest[0], farthest[1])), inverse, range));
        escapeWidth = w;
        long bits = HEADER + 6L * length + 2L * (outliers[0] + outliers[1]) + (long) w * (escapes[0] + escapes[1]);
        Payload p = payload(bits, HEADER, length);
        // a NaN statistic as the canonical NaN: which NaN a chain of additions carries is the processor's
        LittleEndian.putInt(p.bytes(), 0, Float.floatToIntBits(mean));
        LittleEndian.putInt(p.bytes(), 4, Float.floatToIntBits(std));
        p.bytes()[8] = (byte) w;
        long counter = rng.counter();
        rng.seek(counter + Uniform16.draws(length));
        secondValue = length;
        secondStart = HEADER + 6L * mid + 2L * outliers[0] + (long) w * escapes[0];
        byteAligned(gradient, offset, length, mid, m, limit, escapeLimit, w);
        encoded = p;
        int second = secondValue;
        Halves.run(second, length, split, (part, from, to) -> code(gradient, offset, from, to, p.bytes(),
                part == 0 ? HEADER : secondStart, to == length ? bits : secondStart, part, counter, m, inverse, limit,
                escapeLimit, w));
        return p;
    }

    /**
     * The device's encode ({@link SmaqFormat}): the step's uniforms from the stream's position on, as {@link #encode}
     * takes them; the payload's size is the device's to tell. Sampled statistics ({@code num_samples > 0}) draw their
     * sample one draw at a time before the uniforms, so that configuration encodes on the host.
     */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        if (numSamples > 0) {
            return Optional.empty();
        }
        long first = rng.counter();
        rng.seek(first + Uniform16.draws(length));
        SmaqFormat format = new SmaqFormat(clamp, length);
        return Optional.of(new DevicePlan(format, CounterRng.keyOf(rng.seed(), rng.stream()), first,
                HEADER + 6L * length, HEADER));
    }

    /**
     * Counts the outliers and escapes of {@code g[from … to)} into part {@code part}'s slots, with the bits of the
     * largest {@code |x − μ|}; all integer comparisons of magnitude bits ({@link #outlier}, {@link #escapeLimit}).
     */
    private void scan(float[] g, int from, int to, float mean, int limit, int escapeLimit, int part) {
        if (Vectors.enabled) {
            VectorMoments.outliers(g, from, to, mean, limit, escapeLimit, scanned[part]);
            outliers[part] = scanned[part][0];
            escapes[part] = scanned[part][1];
            farthest[part] = scanned[part][2];
            return;
        }
        int count = 0;
        int escaping = 0;
        int largest = 0;
        for (int i = from; i < to; i++) {
            int bits = magnitudeBits(g[i] - mean);
            count += (limit - bits) >>> 31;
            escaping += (escapeLimit - bits) >>> 31;
            largest = Math.max(largest, bits);
        }
        outliers[part] = count;
        escapes[part] = escaping;
        farthest[part] = largest;
    }

    /**
     * The bits of the largest {@code |d|} whose {@code t = }{@link #far} is at most 62: a value escapes exactly when
     * its magnitude bits exceed them, since {@code far} never decreases as {@code |d|} grows.
     */
    private int escapeLimit(float inverse) {
        float e = (1f + (float) LAST_PLAIN / OUTLIER_SCALE) / inverse;
        while (far(e, inverse, range) > LAST_PLAIN) {
            e = Math.nextDown(e);
        }
        while (far(Math.nextUp(e), inverse, range) <= LAST_PLAIN) {
            e = Math.nextUp(e);
        }
        return Float.floatToRawIntBits(e);
    }

    /** The outlier magnitude before rounding, {@code t = (min(|d|/σ, 1 + range) − 1)·42}. */
    private static float far(float d, float inverse, float range) {
        return Math.min(Math.abs(d) * inverse - 1f, range) * OUTLIER_SCALE;
    }

    /** The bits {@code W} of an escape when the largest escaping {@code t} is {@code largest} (above 62). */
    private static int escapeWidth(float largest) {
        int most = (int) largest + 1 - LAST_PLAIN;
        return 32 - Integer.numberOfLeadingZeros(most);
    }

    /**
     * 1 when {@code d = x − μ} is an outlier, {@code |d| > σ} (which is {@code |z| > 1} exactly), else 0, without a
     * branch: non-negative floats compare as their bits. {@code limit} is σ's bits, or {@code Integer.MAX_VALUE} when
     * σ is not usable; NaN is never an outlier.
     */
    private static int outlier(float d, int limit) {
        return (limit - magnitudeBits(d)) >>> 31;
    }

    /** The bits of {@code |d|}, 0 for NaN. */
    private static int magnitudeBits(float d) {
        int abs = Float.floatToRawIntBits(d) & 0x7FFFFFFF;
        return abs > 0x7F800000 ? 0 : abs;
    }

    /** The width of {@code d}'s record: 6, 8, or {@code 8 + w} for an escape. */
    private static int width(float d, int limit, int escapeLimit, int w) {
        int bits = magnitudeBits(d);
        return 6 + 2 * ((limit - bits) >>> 31) + (w & -((escapeLimit - bits) >>> 31));
    }

    /**
     * Sets {@link #secondValue} and {@link #secondStart} to the first value at or after {@code mid} whose record
     * starts on a whole byte, and that bit, given that value {@code mid}'s record starts at {@link #secondStart}; a
     * few records reach a byte boundary. {@code length} when none does.
     */
    private void byteAligned(float[] g, int offset, int length, int mid, float mean, int limit, int escapeLimit,
                             int w) {
        int i = mid;
        long at = secondStart;
        while (i < length && (at & 7) != 0) {
            at += width(g[offset + i] - mean, limit, escapeLimit, w);
            i++;
        }
        secondValue = i;
        secondStart = at;
    }

    /**
     * Packs the records of values {@code [from, to)} from bit {@code start} (the header's end for part 0, else a
     * whole byte) to bit {@code end}, which the counts said they take (else it fails), value {@code e} rounding with
     * its 16-bit uniform of the draws from {@code counter} ({@link Uniform16}).
     */
    private void code(float[] g, int offset, int from, int to, byte[] bytes, long start, long end, int part,
                      long counter, float mean, float inverse, int limit, int escapeLimit, int w) {
        BitPacker out = chunks.packer(part, bytes, start);
        int[] codes = chunks.codes(part);
        int[] widths = this.widths[part];
        float range = this.range;
        int[] u = chunks.uniforms(part);
        for (int e = from; e < to; ) {
            int n = Math.min(Chunks.SIZE, to - e);
            int at = offset + e;
            rng.uniforms16(counter, e, u, n);
            int j = Vectors.enabled ? VectorRecords.records(g, at, n, mean, inverse, limit, escapeLimit, range,
                    MAIN_SCALE, OUTLIER_SCALE, u, codes) : 0;
            for (int i = 0; i < j; i++) {
                if (codes[i] == VectorRecords.ESCAPED) {
                    codes[i] = record(g[at + i] - mean, inverse, limit, escapeLimit, range, u[i]);
                }
            }
            for (; j < n; j++) {
                codes[j] = record(g[at + j] - mean, inverse, limit, escapeLimit, range, u[j]);
            }
            for (j = 0; j < n; j++) {
                int c = codes[j];
                widths[j] = 6 + ((c & 1) << 1) + (w & -(((c & 0x7F) + 1) >>> 7));
            }
            out.writeAll(codes, widths, n);
            e += n;
        }
        if (out.position() != end) {
            throw new IllegalStateException("smaq wrote values " + from + "…" + to + " up to bit " + out.position()
                    + ", counted " + end);
        }
        out.flush();
    }

    /**
     * The record of a value {@code d = x − μ}, rounding with the 16-bit uniform {@code u}: low (flag) bit set for an
     * outlier; magnitude 63 on an outlier marks an escape (magnitude bits above {@code escapeLimit}, never with
     * {@code clamp}), its {@code e} above the 8 code bits. Branch-free, since about a third of a Gaussian's values
     * are outliers at random: the candidate magnitudes are computed and one selected by mask; {@code inverse} is 0
     * when σ is not usable.
     */
    private static int record(float d, float inverse, int limit, int escapeLimit, float range, int u) {
        int bits = magnitudeBits(d);
        int outlier = (limit - bits) >>> 31;
        int escape = -((escapeLimit - bits) >>> 31);
        int sign = (Float.floatToRawIntBits(d) >>> 31) & (-bits >>> 31) & (inverse != 0f ? 1 : 0);
        int main = Float.floatToRawIntBits(Math.abs(d) * inverse * MAIN_SCALE);
        int farBits = Float.floatToRawIntBits(far(d, inverse, range));
        int magnitude = Math.min(Uniform16.floor(Float.intBitsToFloat(main ^ ((main ^ farBits) & -outlier)), u),
                MAIN_SCALE | -outlier >>> 1);
        int plain = outlier | magnitude << 1 | sign << (5 + 2 * outlier);
        int escaped = 1 | ESCAPE << 1 | sign << 7 | (magnitude - LAST_PLAIN) << 8;
        return plain ^ ((plain ^ escaped) & escape);
    }

    /** Mean and population standard deviation, of all values or of {@code numSamples} drawn with replacement. */
    private void statistics(float[] g, int offset, int length) {
        double sum = 0;
        double squares = 0;
        int count;
        if (numSamples > 0 && length > 0) {
            count = numSamples;
            for (int k = 0; k < count; k++) {
                double v = g[offset + rng.nextInt(length)];
                sum += v;
                squares += v * v;
            }
        } else {
            count = length;
            // the plain sum on one thread, the squares on the other, each in ChainSums' order (the GPU's too)
            Runnable plain = () -> sums[0] = ChainSums.of(g, offset, offset + length, ChainSums.Term.PLAIN);
            Runnable squared = () -> sums[1] = ChainSums.of(g, offset, offset + length, ChainSums.Term.SQUARE);
            if (Halves.worthIt(length)) {
                Halves.run(squared, plain);
            } else {
                plain.run();
                squared.run();
            }
            sum = sums[0];
            squares = sums[1];
        }
        double m = count == 0 ? 0 : sum / count;
        mean = (float) m;
        std = (float) Math.sqrt(count == 0 ? 0 : Math.max(squares / count - m * m, 0));
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        byte[] bytes = payload.bytes();
        float mean = LittleEndian.getFloat(bytes, 0);
        float std = LittleEndian.getFloat(bytes, 4);
        int w = bytes[8] & 0xFF;
        boolean known = payload == encoded && Halves.worthIt(length);
        int mid = known ? secondValue : length;
        long second = secondStart;
        Halves.run(mid, length, known, (part, from, to) -> decodeRange(bytes, part == 0 ? HEADER : second, from, to,
                out, offset, part, mean, std, w));
    }

    /**
     * Decodes values {@code [from, to)}, whose records start at bit {@code start}, a whole byte: each record's low 8
     * bits (6 of them for a main value) index a table of signed magnitudes, so no branch depends on the data but the
     * rare escape's (outlier magnitude 63 when the escape width {@code w} is not 0). The bits are taken four bytes at
     * a time into a local accumulator, which always holds a whole record (at most 32 bits); the last few records,
     * within four bytes of the end, are read through a {@link BitReader}.
     */
    private void decodeRange(byte[] bytes, long start, int from, int to, float[] out, int offset, int part,
                             float mean, float std, int w) {
        int p = (int) (start >>> 3);
        int last = bytes.length - 4;
        long acc = 0;
        int available = 0;
        int e = from;
        for (; e < to; e++) {
            if (available < 32) {
                if (p > last) {
                    break;
                }
                acc |= (LittleEndian.getInt(bytes, p) & 0xFFFFFFFFL) << available;
                p += 4;
                available += 32;
            }
            int record = (int) acc;
            if (w != 0 && (record & 0x7F) == 0x7F) {
                out[offset + e] = mean + std * escaped(record, w);
                acc >>>= 8 + w;
                available -= 8 + w;
                continue;
            }
            int width = 6 + ((record & 1) << 1);
            out[offset + e] = mean + std * SIGNED[record & ((1 << width) - 1)];
            acc >>>= width;
            available -= width;
        }
        BitReader in = chunks.reader(part, bytes, 8L * p - available);
        for (; e < to; e++) {
            int record = in.peek(8);
            if (w != 0 && (record & 0x7F) == 0x7F) {
                in.skip(8);
                out[offset + e] = mean + std * escaped(record | in.read(w) << 8, w);
                continue;
            }
            int width = 6 + ((record & 1) << 1);
            in.skip(width);
            out[offset + e] = mean + std * SIGNED[record & ((1 << width) - 1)];
        }
    }

    /** {@code ±|z|} of an escape record whose low {@code 8 + w} bits are {@code record}. */
    private static float escaped(int record, int w) {
        float a = 1f + (LAST_PLAIN + (record >>> 8 & (int) ((1L << w) - 1))) / (float) OUTLIER_SCALE;
        return (record >>> 7 & 1) == 1 ? -a : a;
    }

    /** {@code ±|z|} of every record, main ones indexed by their 6 bits, outliers by their 8. */
    private static float[] signedMagnitudes() {
        float[] t = new float[256];
        for (int code = 0; code < 64; code += 2) {
            float a = (code >>> 1 & 15) / (float) MAIN_SCALE;
            t[code] = code >>> 5 == 1 ? -a : a;
        }
        for (int code = 1; code < 256; code += 2) {
            float a = 1f + (code >>> 1 & 63) / (float) OUTLIER_SCALE;
            t[code] = code >>> 7 == 1 ? -a : a;
        }
        return t;
    }

    @Override
    public Compressor copy(long stream) {
        return new Smaq(numSamples, clamp, seed, stream);
    }

    /** Registers {@code smaq} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("num_samples", ValueType.INT, 0L,
                        "values sampled (with replacement) for the mean and standard deviation; 0 uses all"),
                new ConfigKey("outliers", ValueType.STRING, "escape",
                        "escape (outliers past 2.48 deviations follow their 8-bit code on the same grid, unbiased) or "
                                + "clamp (the paper's saturation at 2.5 deviations, biased)"));

        public Provider() {
            super(NAME, "SmaQ: standardised values, 6-bit codes within one deviation, 8-bit outlier codes, escapes "
                    + "past 2.48", Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            long samples = params.longValue("num_samples");
            if (samples < 0 || samples > Integer.MAX_VALUE) {
                throw new ConfigException("num_samples must be in [0, " + Integer.MAX_VALUE + "], found " + samples);
            }
            boolean clamp = params.oneOf("outliers", OUTLIERS).equals("clamp");
            return new Smaq((int) samples, clamp, seed, 0);
        }
    }
}
