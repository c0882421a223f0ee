package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.LevelFormat;
import org.gridrun.engine.random.CounterRng;
import org.gridrun.engine.simd.Simd;

/**
 * What the bucketed level quantizers share (qsgd, qinf, nuq, trn, and the methods that learn their levels): a gradient
 * split into buckets, each scaled by its norm, every scaled value {@code r} rounded stochastically and without bias
 * to one of its two neighbouring levels.
 *
 * <p>The levels are an array, sorted, strictly increasing, in [-1, 1], at least two and at most {@code 2^bits} of
 * them; a value of a bucket with norm {@code ‖b‖} lies between two neighbours {@code l_j ≤ r ≤ l_{j+1}} and becomes
 * {@code l_{j+1}} with probability {@code (r − l_j)/(l_{j+1} − l_j)}, {@code l_j} otherwise, so {@code ‖b‖·l} has
 * expectation {@code ‖b‖·r}. A value outside {@code [l_0, l_last]} is clamped to the end level, which is unbiased
 * only when the levels reach ±1 (as every fixed set here does).
 *
 * <p>Wire format: the norms of all buckets first, as little-endian float32, then one {@code bits}-bit level index
 * per value, packed by {@link BitPacker} with no padding between buckets: exactly {@code 32·buckets + bits·n} bits.
 * A bucket whose norm is zero decodes to zeros; one whose norm is not finite to NaN. Each 64-bit random draw decides
 * four values: value {@code e} of a step takes the 16-bit uniform {@code u} at bits {@code 48 − 16·(e mod 4)} of draw
 * {@code e/4} of the step's stretch of the stream, so a draw depends only on the value's position and a large vector
 * can be encoded and decoded in two halves at once ({@link Halves}) with the same payload as one thread's. Rounding
 * is up when {@code floor(f·2^16) + u ≥ 2^16}, {@code f} being the value's fraction of the way between its two
 * levels: unbiased to the resolution of the uniform, the probability of going up falling short of {@code f} by less
 * than {@code 2^-16} (a bias under {@code 2^-16} of one level gap, far below the rounding's own standard deviation).
 *
 * <p>Buckets run over the whole gradient, or, with per-layer buckets and a bound layout, restart at every tensor.
 * With {@code ignore_small_buckets} (the seed's {@code nuq_ig_sm_bkts}) every bucket shorter than the bucket size is
 * sent as its float32 values in place of its norm, and its values take no level bits: the payload is then
 * {@code 32·(quantized buckets + raw values) + bits·(quantized values)} bits, the header holding per bucket in order
 * either the norm or the raw values.
 * A method that learns its levels is built {@code adaptive}: {@link #setLevels} may then change them between steps,
 * and {@link #saveState} writes them after the random stream's position; fixed levels are configuration, not state.
 */
abstract class LevelQuantizer extends BaseCompressor implements DeviceEncodable {
    /** How a bucket's scale is measured. */
    enum Norm {
        /** The Euclidean norm: scaled values have {@code Σ r² = 1}. */
        L2,
        /** The largest magnitude: the largest scaled value is ±1. */
        LINF;

        /**
         * The norm of {@code g[start … end)} with every value first clamped to {@code [−bound, bound]}; NaN when a
         * value is NaN.
         */
        float of(float[] g, int start, int end, float bound) {
            if (bound != Float.POSITIVE_INFINITY) {
                return clamped(g, start, end, bound);
            }
            return this == L2 ? l2(g, start, end) : largest(g, start, end);
        }

        /** The L2 norm's squares in {@link ChainSums}' order; the largest magnitude, a maximum, in any order. */
        private float clamped(float[] g, int start, int end, float bound) {
            if (this == L2) {
                return (float) Math.sqrt(ChainSums.clampedSquares(g, start, end, bound));
            }
            double acc = 0;
            for (int i = start; i < end; i++) {
                acc = Math.max(acc, Math.abs(clamp(g[i], bound)));
            }
            return (float) acc;
        }

        private static float l2(float[] g, int start, int end) {
            return (float) Math.sqrt(ChainSums.chains(g, start, end, ChainSums.Term.SQUARE));
        }

        /**
         * The largest magnitude as the largest sign-cleared bit pattern, an integer maximum; a
         * NaN's pattern is above infinity's, so a NaN value gives NaN as {@code Math.max} would (with vectors:
         * {@link VectorMoments#largestBits}).
         */
        private static float largest(float[] g, int start, int end) {
            if (Vectors.enabled) {
                return Float.intBitsToFloat(VectorMoments.largestBits(g, start, end));
            }
            int max = 0;
            for (int i = start; i < end; i++) {
                max = Math.max(max, Float.floatToRawIntBits(g[i]) & 0x7FFFFFFF);
            }
            return Float.intBitsToFloat(max);
        }
    }

    protected final int bits;
    protected final int bucketSize;
    protected final boolean perLayer;
    protected final boolean ignoreSmallBuckets;
    private final Norm norm;
    private final boolean adaptive;
    private final double[] initialLevels;
    private double[] levels;
    private boolean uniform;
    /** Whether the levels are {@code ±2^-j} ({@link VectorLevels#binaryExponential}): nuq's with {@code mul = 0.5}. */
    private boolean binary;
    private LevelSearch search;
    /**
     * The wire format a device encodes this quantizer's payloads in, made on the first plan and kept while the
     * levels, the layout and the length stay, so that a device codec sees the same object (and uploads nothing)
     * step after step; never changed in place.
     */
    private LevelFormat deviceFormat;
    private final CounterRng rng;
    private final Buckets buckets;
    /** Per half ({@link Halves}): a packer, a reader and level indices of one chunk, and a decoding table. */
    private final Chunks chunks = new Chunks();
    private final float[][] tables;

    LevelQuantizer(int bits, int bucketSize, boolean perLayer, Norm norm, double[] levels, boolean adaptive,
                   long seed, long stream) {
        this(bits, bucketSize, perLayer, false, norm, levels, adaptive, seed, stream);
    }

    LevelQuantizer(int bits, int bucketSize, boolean perLayer, boolean ignoreSmallBuckets, Norm norm,
                   double[] levels, boolean adaptive, long seed, long stream) {
        super(seed, stream);
        this.bits = bits;
        this.bucketSize = bucketSize;
        this.perLayer = perLayer;
        this.ignoreSmallBuckets = ignoreSmallBuckets;
        this.norm = norm;
        this.adaptive = adaptive;
        this.tables = new float[2][1 << bits];
        this.rng = new CounterRng(seed, stream);
        this.buckets = new Buckets(bucketSize, perLayer, ignoreSmallBuckets);
        this.initialLevels = levels.clone();
        setLevelsUnchecked(levels);
    }

    /**
     * The configuration every level quantizer records, {@code bits}, {@code bucket_size}, {@code per_layer} and
     * {@code ignore_small_buckets} in that order, in a map a method adds its own keys to.
     */
    protected Map<String, Object> bucketingConfig() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("bits", (long) bits);
        config.put("bucket_size", (long) bucketSize);
        config.put("per_layer", perLayer);
        config.put("ignore_small_buckets", ignoreSmallBuckets);
        return config;
    }

    /** {@code count} uniform levels from −1 to 1: {@code −1 + j·2/(count − 1)}. */
    static double[] uniformLevels(int count) {
        double spacing = 2.0 / (count - 1);
        double[] l = new double[count];
        for (int j = 0; j < count; j++) {
            l[j] = -1.0 + j * spacing;
        }
        return l;
    }

    /** The current levels (a copy). */
    public double[] levels() {
        return levels.clone();
    }

    /**
     * Replaces the levels from the next {@code encode} on; only for an adaptive method, between steps.
     *
     * <p>Fails unless they are strictly increasing, in [-1, 1], and between 2 and {@code 2^bits} of them.
     */
    protected void setLevels(double[] newLevels) {
        if (!adaptive) {
            throw new IllegalStateException(name() + " has fixed levels");
        }
        setLevelsUnchecked(newLevels);
    }

    private void setLevelsUnchecked(double[] l) {
        if (l.length < 2 || l.length > 1 << bits) {
            throw new IllegalArgumentException("levels must number between 2 and 2^" + bits + ", found " + l.length);
        }
        for (int j = 0; j < l.length; j++) {
            if (!(l[j] >= -1 && l[j] <= 1) || j > 0 && !(l[j] > l[j - 1])) {
                throw new IllegalArgumentException("levels must increase strictly within [-1, 1], found "
                        + Arrays.toString(l));
            }
        }
        levels = l.clone();
        uniform = Arrays.equals(levels, uniformLevels(l.length));
        binary = Simd.enabled() && VectorLevels.binaryExponential(levels);
        search = new LevelSearch(levels);
        deviceFormat = null;
    }

    /** The buckets of a gradient of {@code length} values (for a method that fits its levels to them). */
    final Buckets bucketsFor(int length) {
        return buckets.forLength(length);
    }

    /** The exact payload size for {@code length} values: {@code 32·buckets + bits·length} without raw buckets. */
    public long payloadBits(int length) {
        Buckets b = buckets.forLength(length);
        return 32L * b.header(b.count()) + (long) bits * b.quantizedValues();
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    @Override
    public void bind(TensorLayout layout) {
        buckets.bind(layout);
        deviceFormat = null;
    }

    /** The bound every value of {@code g[start … end)} is clamped to before scaling; infinite (none) by default. */
    protected float clipBound(float[] g, int start, int end) {
        return Float.POSITIVE_INFINITY;
    }

    /**
     * The {@code k} of a {@link #clipBound} that is {@code k} standard deviations of the bucket's values (TernGrad's),
     * as a device computes it; 0 where values are not clipped.
     */
    protected double clipSigmas() {
        return 0;
    }

    @Override
    public boolean levelsAdapt() {
        return adaptive;
    }

    /** Whether an encode of {@code length} values can run on a device: not with raw buckets. */
    protected final boolean encodesOnDevice(int length) {
        return buckets.forLength(length).quantizedValues() == length;
    }

    /** {@inheritDoc} Only the host encodes raw buckets. */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        if (!encodesOnDevice(length)) {
            return Optional.empty();
        }
        Buckets b = buckets.forLength(length);
        if (deviceFormat == null || deviceFormat.length() != length) {
            int[] starts = new int[b.count() + 1];
            for (int k = 0; k <= b.count(); k++) {
                starts[k] = b.start(k);
            }
            deviceFormat = new LevelFormat(bits, levels.clone(), uniform ? null : search.table(), norm == Norm.LINF,
                    clipSigmas(), starts);
        }
        long first = rng.counter();
        rng.seek(first + Uniform16.draws(length));
        return Optional.of(new DevicePlan(deviceFormat, CounterRng.keyOf(rng.seed(), rng.stream()), first,
                payloadBits(length), 32L * b.count()));
    }

    static float clamp(float v, float bound) {
        return Math.min(Math.max(v, -bound), bound);
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        Buckets b = buckets.forLength(length);
        Payload p = payload(payloadBits(length), 32L * (b.header(b.count()) - (length - b.quantizedValues())), length);
        long first = rng.counter();
        rng.seek(first + Uniform16.draws(length));
        boolean split = Halves.worthIt(length) && b.quantizedValues() == length;
        Halves.split(length, Chunks.ALIGN, split,
                (part, from, to) -> quantize(gradient, offset, b, from, to, p.bytes(), part, first));
        return p;
    }

    /**
     * Measures and packs values {@code [from, to)}, {@code from} a multiple of {@link Chunks#ALIGN} so their codes
     * start on a whole byte, bucket by bucket: each bucket's norm just before its codes, while its values are still in
     * the cache, so the gradient is read from memory once. A bucket's norm (or raw values) is written by the part its
     * first value belongs to; a bucket that straddles the two parts is measured by both, alike. Value {@code e} takes
     * its uniform from draw {@code first + e/4} ({@link #uniformOf}), whatever thread handles it.
     */
    private void quantize(float[] g, int offset, Buckets b, int from, int to, byte[] bytes, int part, long first) {
        BitPacker out = chunks.packer(part, bytes, 32L * b.header(b.count()) + (long) bits * b.codesBefore(from));
        int[] codes = chunks.codes(part);
        for (int k = b.indexOf(from), e = from; e < to; k++) {
            int start = offset + b.start(k);
            int end = offset + b.start(k + 1);
            boolean owned = b.start(k) >= from;
            if (b.raw(k)) {
                for (int i = start; owned && i < end; i++) {
                    LittleEndian.putFloat(bytes, 4 * (b.header(k) + i - start), g[i]);
                }
                e = b.start(k + 1);
                continue;
            }
            float bound = clipBound(g, start, end);
            float scale = norm.of(g, start, end, bound);
            if (owned) {
                // a NaN norm goes as the one canonical NaN: which NaN a sum over NaNs and infinities gives depends
                // on the order the compiled code adds in (and differs on a GPU), and the payload must not
                LittleEndian.putFloat(bytes, 4 * b.header(k), Float.isNaN(scale) ? Float.NaN : scale);
            }
            for (int last = Math.min(to, b.start(k + 1)); e < last; ) {
                int stop = Math.min(last, e + Chunks.SIZE);
                bucketCodes(g, offset, e, stop, codes, part, first, scale, bound);
                out.writeAll(codes, stop - e, bits);
                e = stop;
            }
        }
        out.flush();
    }

    /**
     * The level indices of values {@code [from, to)} of one bucket of norm {@code scale}, into {@code codes}; with
     * vectors, any levels take their uniforms from the vector generator too, the levels {@code ±2^-j} are found from
     * each value's exponent bits ({@link VectorLevels}), and others searched one value at a time.
     */
    private void bucketCodes(float[] g, int offset, int from, int to, int[] codes, int part, long first, float scale,
                             float bound) {
        if (scale == 0f || !Float.isFinite(scale)) {
            Arrays.fill(codes, 0, to - from, 0);
        } else if (uniform) {
            float ratio = (levels.length - 1) * 0.5f / scale;
            if (Vectors.enabled && Float.isFinite(ratio) && levels.length <= VectorRounding.MAX_LEVELS) {
                vectorCodes(g, offset, from, to, codes, chunks.uniforms(part), first, bound, ratio);
            } else {
                uniformCodes(g, offset, from, to, codes, first, bound, ratio);
            }
        } else if (Vectors.enabled) {
            int[] u = chunks.uniforms(part);
            rng.uniforms16(first, from, u, to - from);
            LevelSearch s = search;
            double inverse = 1.0 / scale;
            int j = binary && bound == Float.POSITIVE_INFINITY ? VectorLevels.binaryCodes(g, offset + from,
                    to - from, u, codes, chunks.sums(part), inverse, levels.length / 2 - 1) : 0;
            for (; j < to - from; j++) {
                codes[j] = s.index(clamp(g[offset + from + j], bound) * inverse, u[j]);
            }
        } else {
            searchCodes(g, offset, from, to, codes, first, bound, 1.0 / scale);
        }
    }

    /** The 16-bit uniform of value {@code e} ({@link Uniform16}). */
    private int uniformOf(long first, int e) {
        return Uniform16.of(rng, first, e);
    }

    /**
     * Uniform levels: index {@code floor(t + u/2^16)} (to the uniform's resolution, see the class comment) with
     * {@code t = (v/‖b‖ + 1)·top/2}, at most {@code top}, which is {@code floor(t) + 1} with probability
     * {@code t − floor(t)}; {@code ratio} is {@code top/(2‖b‖)}. Values are clamped to {@code bound} first; with no
     * bound {@code |v| ≤ ‖b‖}, so only rounding can push {@code t} past {@code [0, top]}, and truncation towards zero
     * and the final minimum absorb that. One draw serves four values.
     */
    private void uniformCodes(float[] g, int offset, int from, int to, int[] codes, long first, float bound,
                              float ratio) {
        int top = levels.length - 1;
        float half = top * 0.5f;
        boolean clip = bound != Float.POSITIVE_INFINITY;
        int j = 0;
        int e = from;
        for (; (e & 3) != 0 && e < to; e++) {
            codes[j++] = uniformCode(clamp(g[offset + e], bound) * ratio + half, top, uniformOf(first, e));
        }
        for (; e + 3 < to; e += 4, j += 4) {
            long r = rng.at(first + (e >>> 2));
            int at = offset + e;
            float a = g[at];
            float b = g[at + 1];
            float c = g[at + 2];
            float d = g[at + 3];
            if (clip) {
                a = clamp(a, bound);
                b = clamp(b, bound);
                c = clamp(c, bound);
                d = clamp(d, bound);
            }
            codes[j] = uniformCode(a * ratio + half, top, Uniform16.piece(r, 0));
            codes[j + 1] = uniformCode(b * ratio + half, top, Uniform16.piece(r, 1));
            codes[j + 2] = uniformCode(c * ratio + half, top, Uniform16.piece(r, 2));
            codes[j + 3] = uniformCode(d * ratio + half, top, Uniform16.piece(r, 3));
        }
        for (; e < to; e++) {
            codes[j++] = uniformCode(clamp(g[offset + e], bound) * ratio + half, top, uniformOf(first, e));
        }
    }

    /**
     * What {@link #uniformCodes} computes, with the Vector API: the uniforms of the chunk first
     * ({@link CounterRng#uniforms16}), then whole vectors of codes ({@link VectorRounding}), then the tail. A
     * subnormal norm, whose {@code ratio} overflows, stays on the scalar path, where the two would differ.
     */
    private void vectorCodes(float[] g, int offset, int from, int to, int[] codes, int[] u, long first, float bound,
                             float ratio) {
        int n = to - from;
        int top = levels.length - 1;
        float half = top * 0.5f;
        rng.uniforms16(first, from, u, n);
        for (int j = VectorRounding.uniformCodes(g, offset + from, n, u, codes, bound, ratio, half, top); j < n; j++) {
            codes[j] = uniformCode(clamp(g[offset + from + j], bound) * ratio + half, top, u[j]);
        }
    }

    private static int uniformCode(float t, int top, int u) {
        return Math.min(Uniform16.floor(t, u), top);
    }

    /** Any levels: {@link LevelSearch} on {@code r = v/‖b‖}, {@code inverse} being {@code 1/‖b‖}. */
    private void searchCodes(float[] g, int offset, int from, int to, int[] codes, long first, float bound,
                             double inverse) {
        LevelSearch s = search;
        int j = 0;
        int e = from;
        for (; (e & 3) != 0 && e < to; e++) {
            codes[j++] = s.index(clamp(g[offset + e], bound) * inverse, uniformOf(first, e));
        }
        for (; e + 3 < to; e += 4, j += 4) {
            long r = rng.at(first + (e >>> 2));
            int at = offset + e;
            codes[j] = s.index(clamp(g[at], bound) * inverse, Uniform16.piece(r, 0));
            codes[j + 1] = s.index(clamp(g[at + 1], bound) * inverse, Uniform16.piece(r, 1));
            codes[j + 2] = s.index(clamp(g[at + 2], bound) * inverse, Uniform16.piece(r, 2));
            codes[j + 3] = s.index(clamp(g[at + 3], bound) * inverse, Uniform16.piece(r, 3));
        }
        for (; e < to; e++) {
            codes[j++] = s.index(clamp(g[offset + e], bound) * inverse, uniformOf(first, e));
        }
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (payload.bits() != payloadBits(length)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + length + " values: " + payload);
        }
        Buckets b = buckets.forLength(length);
        Halves.split(length, Chunks.ALIGN, Halves.worthIt(length) && b.quantizedValues() == length,
                (part, from, to) -> decodeRange(payload.bytes(), b, from, to, out, offset, part));
    }

    /** Decodes values {@code [from, to)}, {@code from} a multiple of {@link Chunks#ALIGN}, into {@code out}. */
    private void decodeRange(byte[] bytes, Buckets b, int from, int to, float[] out, int offset, int part) {
        BitReader in = chunks.reader(part, bytes, 32L * b.header(b.count()) + (long) bits * b.codesBefore(from));
        int[] codes = chunks.codes(part);
        float[] table = tables[part];
        int k = b.indexOf(from);
        if (!b.raw(k)) {
            fillTable(table, LittleEndian.getFloat(bytes, 4 * b.header(k)));
        }
        for (int e = from; e < to; ) {
            if (b.raw(k)) {
                for (int j = 0; e < b.start(k + 1); e++, j++) {
                    out[offset + e] = LittleEndian.getFloat(bytes, 4 * (b.header(k) + j));
                }
                if (e < to && !b.raw(++k)) {
                    fillTable(table, LittleEndian.getFloat(bytes, 4 * b.header(k)));
                }
                continue;
            }
            int end = Math.min(Math.min(to, b.start(k + 1)), e + Chunks.SIZE);
            int n = end - e;
            in.readAll(codes, n, bits);
            int at = offset + e;
            for (int j = 0; j < n; j++) {
                out[at + j] = table[codes[j]];
            }
            e = end;
            if (e == b.start(k + 1) && e < to && !b.raw(++k)) {
                fillTable(table, LittleEndian.getFloat(bytes, 4 * b.header(k)));
            }
        }
    }

    /** The decoded value of each level index for a bucket of norm {@code scale}: {@code scale·l_j}. */
    private void fillTable(float[] table, float scale) {
        if (scale == 0f || !Float.isFinite(scale)) {
            Arrays.fill(table, scale == 0f ? 0f : Float.NaN);
            return;
        }
        Arrays.fill(table, Float.NaN);
        for (int j = 0; j < levels.length; j++) {
            table[j] = (float) (scale * levels[j]);
        }
    }

    @Override
    public void reset() {
        super.reset();
        rng.seek(0);
        setLevelsUnchecked(initialLevels);
    }

    /** The random stream's position (24 bytes), then, for an adaptive method, the level count and the levels. */
    @Override
    public void saveState(DataOutput out) throws IOException {
        rng.saveState(out);
        if (adaptive) {
            out.writeInt(levels.length);
            for (double l : levels) {
                out.writeDouble(l);
            }
        }
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        rng.restoreState(in);
        if (adaptive) {
            int count = in.readInt();
            if (count < 2 || count > 1 << bits) {
                throw new IllegalStateException("saved state holds " + count + " levels, not 2 to 2^" + bits);
            }
            double[] l = new double[count];
            for (int j = 0; j < count; j++) {
                l[j] = in.readDouble();
            }
            try {
                setLevels(l);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("saved state: " + e.getMessage(), e);
            }
        }
    }
}
