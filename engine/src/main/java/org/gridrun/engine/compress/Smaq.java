package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * SmaQ: values are standardised by the vector's mean and standard deviation; those within one deviation get a
 * 6-bit code, the outliers an 8-bit one, each rounded stochastically.
 *
 * <p>With {@code μ} and {@code σ} (population standard deviation) of the whole vector, or of {@code num_samples}
 * values drawn uniformly with replacement when {@code num_samples > 0}, each value has {@code z = (x − μ)/σ}.
 * A {@code b}-bit code is a flag bit, {@code b − 2} magnitude bits and a sign bit, with scale
 * {@code (2^(b−2) − 1)/range}:
 * <ul>
 *   <li>{@code |z| ≤ 1}: flag 0, 6 bits, magnitude {@code |z|·15} (range 1, scale 15);</li>
 *   <li>{@code |z| > 1}: flag 1, 8 bits, magnitude {@code (|z| − 1)·42} (range 1.5, scale 63/1.5 = 42), so outliers
 *       reach {@code |z| = 2.5}; beyond that they saturate to 2.5 (not unbiased there).</li>
 * </ul>
 * The magnitude is rounded stochastically to a neighbouring integer, without bias, and decodes to
 * {@code μ ± σ·|z|}. A zero or non-finite {@code σ} encodes every value as {@code z = 0} (decoding to {@code μ}).
 *
 * <p>Wire format: {@code μ} and {@code σ} as float32 (64 bits), then one record per value in order, packed bit by bit
 * least significant bit first: the flag, then the magnitude, then the sign (1 for negative). A payload of {@code n}
 * values with {@code k} outliers holds exactly {@code 64 + 6(n − k) + 8k} bits, so its length varies with the data
 * and a new payload is allocated whenever it changes. Statistics are per worker: payloads are gathered.
 *
 * <p>State: the position of its random stream (24 bytes). Rounding takes one 16-bit uniform per value, four per
 * 64-bit draw, unbiased to {@code 2^-16} of a step ({@link Uniform16}).
 */
public final class Smaq extends RandomizedCompressor {
    /** The short name. */
    public static final String NAME = "smaq";

    private static final int MAIN_SCALE = 15;
    private static final int OUTLIER_SCALE = 42;
    private static final float OUTLIER_RANGE = 1.5f;

    private static final float[] SIGNED = signedMagnitudes();

    private final int numSamples;
    private final Chunks chunks = new Chunks();
    private final int[][] widths = new int[2][Chunks.SIZE];
    private final int[] outliers = new int[2];
    private final double[] sums = new double[4];
    private float mean;
    private float std;
    /** The latest payload, and where its second half starts (value and bit), for decoding it in two halves. */
    private Payload encoded;
    private int secondValue;
    private long secondStart;

    Smaq(int numSamples, long seed, long stream) {
        super(seed, stream);
        this.numSamples = numSamples;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("num_samples", (long) numSamples);
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
        boolean usable = std > 0f && Float.isFinite(std);
        float m = usable ? mean : 0f;
        float inverse = usable ? 1f / std : 0f;
        int limit = usable ? Float.floatToRawIntBits(std) : Integer.MAX_VALUE;
        int mid = Halves.middle(length, Chunks.ALIGN);
        boolean split = Halves.worthIt(length);
        outliers[0] = 0;
        outliers[1] = 0;
        Halves.run(mid, length, split, (part, from, to) -> outliers[part] = outliers(gradient, offset + from,
                offset + to, m, limit));
        Payload p = payload(64 + 6L * length + 2L * (outliers[0] + outliers[1]), 64, length);
        LittleEndian.putFloat(p.bytes(), 0, mean);
        LittleEndian.putFloat(p.bytes(), 4, std);
        long counter = rng.counter();
        rng.seek(counter + Uniform16.draws(length));
        int aligned = byteAligned(gradient, offset, length, mid, 64 + 6L * mid + 2L * outliers[0], m, limit);
        secondStart = 64 + 6L * aligned + 2L * (outliers[0] + outliers(gradient, offset + mid, offset + aligned, m,
                limit));
        secondValue = aligned;
        encoded = p;
        Halves.run(aligned, length, split, (part, from, to) -> code(gradient, offset, from, to, p.bytes(),
                part == 0 ? 64 : secondStart, part, counter, m, inverse, limit));
        return p;
    }

    /** How many of {@code g[from … to)} are outliers (see {@link #outlier}). */
    private static int outliers(float[] g, int from, int to, float mean, int limit) {
        int count = 0;
        for (int i = from; i < to; i++) {
            count += outlier(g[i] - mean, limit);
        }
        return count;
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

    /**
     * The first value index at or after {@code mid} whose record starts on a whole byte, given that value
     * {@code mid}'s record starts at bit {@code position}; a main record moves the position by 6, an outlier by 8, so
     * a few main values reach a byte boundary. {@code length} when none does.
     */
    private static int byteAligned(float[] g, int offset, int length, int mid, long position, float mean,
                                   int limit) {
        int i = mid;
        long at = position;
        while (i < length && (at & 7) != 0) {
            at += 6 + 2 * outlier(g[offset + i] - mean, limit);
            i++;
        }
        return i;
    }

    /**
     * Packs the records of values {@code [from, to)} from bit {@code start} (64 for part 0, else a whole byte),
     * value {@code e} rounding with its 16-bit uniform of the draws from {@code counter} ({@link Uniform16}).
     */
    private void code(float[] g, int offset, int from, int to, byte[] bytes, long start, int part, long counter,
                      float mean, float inverse, int limit) {
        BitPacker out = chunks.packer(part, bytes, start);
        int[] codes = chunks.codes(part);
        int[] widths = this.widths[part];
        for (int e = from; e < to; ) {
            int n = Math.min(Chunks.SIZE, to - e);
            int at = offset + e;
            int j = 0;
            for (; ((e + j) & 3) != 0 && j < n; j++) {
                codes[j] = record(g[at + j] - mean, inverse, limit, Uniform16.of(rng, counter, e + j));
            }
            for (; j + 3 < n; j += 4) {
                long r = rng.at(counter + ((e + j) >>> 2));
                codes[j] = record(g[at + j] - mean, inverse, limit, Uniform16.piece(r, 0));
                codes[j + 1] = record(g[at + j + 1] - mean, inverse, limit, Uniform16.piece(r, 1));
                codes[j + 2] = record(g[at + j + 2] - mean, inverse, limit, Uniform16.piece(r, 2));
                codes[j + 3] = record(g[at + j + 3] - mean, inverse, limit, Uniform16.piece(r, 3));
            }
            for (; j < n; j++) {
                codes[j] = record(g[at + j] - mean, inverse, limit, Uniform16.of(rng, counter, e + j));
            }
            for (j = 0; j < n; j++) {
                widths[j] = 6 + ((codes[j] & 1) << 1);
            }
            out.writeAll(codes, widths, n);
            e += n;
        }
        out.flush();
    }

    /**
     * The record of a value {@code d = x − μ}, rounding with the 16-bit uniform {@code u}; its width is 8 when its
     * low (flag) bit is set, else 6. Branch-free, since about a third of a Gaussian's values are outliers at random:
     * the two candidate magnitudes are computed and one selected by mask; {@code inverse} is 0 when σ is not usable.
     */
    private static int record(float d, float inverse, int limit, int u) {
        int outlier = outlier(d, limit);
        int sign = (Float.floatToRawIntBits(d) >>> 31) & (-magnitudeBits(d) >>> 31) & (inverse != 0f ? 1 : 0);
        float a = Math.abs(d) * inverse;
        int main = Float.floatToRawIntBits(a * MAIN_SCALE);
        int far = Float.floatToRawIntBits(Math.min(a - 1f, OUTLIER_RANGE) * OUTLIER_SCALE);
        float t = Float.intBitsToFloat(main ^ ((main ^ far) & -outlier));
        int magnitude = Math.min(Uniform16.floor(t, u), MAIN_SCALE + (63 - MAIN_SCALE) * outlier);
        return outlier | magnitude << 1 | sign << (5 + 2 * outlier);
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
            int mid = Halves.middle(length, Chunks.ALIGN);
            java.util.Arrays.fill(sums, 0);
            Halves.run(mid, length, Halves.worthIt(length), (part, from, to) -> sums(g, offset + from, offset + to,
                    part));
            sum = sums[0] + sums[2];
            squares = sums[1] + sums[3];
        }
        double m = count == 0 ? 0 : sum / count;
        mean = (float) m;
        std = (float) Math.sqrt(count == 0 ? 0 : Math.max(squares / count - m * m, 0));
    }

    /** The sum and sum of squares of {@code g[from … to)} into {@code sums[2·part …]}. */
    private void sums(float[] g, int from, int to, int part) {
        sums[2 * part + 1] = Moments.squares(g, from, to, sums, 2 * part);
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        byte[] bytes = payload.bytes();
        float mean = LittleEndian.getFloat(bytes, 0);
        float std = LittleEndian.getFloat(bytes, 4);
        boolean known = payload == encoded && Halves.worthIt(length);
        int mid = known ? secondValue : length;
        long second = secondStart;
        Halves.run(mid, length, known, (part, from, to) -> decodeRange(bytes, part == 0 ? 64 : second, from, to,
                out, offset, part, mean, std));
    }

    /**
     * Decodes values {@code [from, to)}, whose records start at bit {@code start}: each record's low 8 bits (6 of
     * them for a main value) index a table of signed magnitudes, so no branch depends on the data.
     */
    private void decodeRange(byte[] bytes, long start, int from, int to, float[] out, int offset, int part,
                             float mean, float std) {
        BitReader in = chunks.reader(part, bytes, start);
        for (int e = from; e < to; e++) {
            int record = in.peek(8);
            int width = 6 + ((record & 1) << 1);
            in.skip(width);
            out[offset + e] = mean + std * SIGNED[record & ((1 << width) - 1)];
        }
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
        return new Smaq(numSamples, seed, stream);
    }

    /** Registers {@code smaq} and declares its parameter. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("num_samples", ValueType.INT, 0L,
                        "values sampled (with replacement) for the mean and standard deviation; 0 uses all"));

        public Provider() {
            super(NAME, "SmaQ: standardised values, 6-bit codes within one deviation, 8-bit outlier codes up to 2.5",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            long samples = params.longValue("num_samples");
            if (samples < 0 || samples > Integer.MAX_VALUE) {
                throw new ConfigException("num_samples must be in [0, " + Integer.MAX_VALUE + "], found " + samples);
            }
            return new Smaq((int) samples, seed, 0);
        }
    }
}
