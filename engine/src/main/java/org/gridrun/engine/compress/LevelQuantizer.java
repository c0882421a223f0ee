package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.gridrun.engine.random.CounterRng;

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
 * two values (its top 24 bits the first, the next 24 the second).
 *
 * <p>Buckets run over the whole gradient, or, with per-layer buckets and a bound layout, restart at every tensor.
 * With {@code ignore_small_buckets} (the seed's {@code nuq_ig_sm_bkts}) every bucket shorter than the bucket size is
 * sent as its float32 values in place of its norm, and its values take no level bits: the payload is then
 * {@code 32·(quantized buckets + raw values) + bits·(quantized values)} bits, the header holding per bucket in order
 * either the norm or the raw values.
 * A method that learns its levels is built {@code adaptive}: {@link #setLevels} may then change them between steps,
 * and {@link #saveState} writes them after the random stream's position; fixed levels are configuration, not state.
 */
abstract class LevelQuantizer extends BaseCompressor {
    /** How a bucket's scale is measured. */
    enum Norm {
        /** The Euclidean norm: scaled values have {@code Σ r² = 1}. */
        L2,
        /** The largest magnitude: the largest scaled value is ±1. */
        LINF;

        /** The norm of {@code g[start … end)} with every value first clamped to {@code [−bound, bound]}. */
        float of(float[] g, int start, int end, float bound) {
            double acc = 0;
            for (int i = start; i < end; i++) {
                float v = clamp(g[i], bound);
                acc = this == L2 ? acc + (double) v * v : Math.max(acc, Math.abs(v));
            }
            return (float) (this == L2 ? Math.sqrt(acc) : acc);
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
    private final float[] table;
    private final CounterRng rng;
    private final Buckets buckets;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    /** Per bucket while encoding: half the top level index, it divided by the norm, and the norm's inverse. */
    private float half;
    private float ratio;
    private double inverse;

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
        this.table = new float[1 << bits];
        this.rng = new CounterRng(seed, stream);
        this.buckets = new Buckets(bucketSize, perLayer, ignoreSmallBuckets);
        this.initialLevels = levels.clone();
        setLevelsUnchecked(levels);
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
    }

    /** The bound every value of {@code g[start … end)} is clamped to before scaling; infinite (none) by default. */
    protected float clipBound(float[] g, int start, int end) {
        return Float.POSITIVE_INFINITY;
    }

    static float clamp(float v, float bound) {
        return Math.min(Math.max(v, -bound), bound);
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        Buckets b = buckets.forLength(length);
        Payload p = payload(payloadBits(length), length);
        byte[] bytes = p.bytes();
        packer.reset(bytes, 32L * b.header(b.count()));
        for (int k = 0; k < b.count(); k++) {
            int start = offset + b.start(k);
            int end = offset + b.start(k + 1);
            if (b.raw(k)) {
                for (int i = start; i < end; i++) {
                    LittleEndian.putFloat(bytes, 4 * (b.header(k) + i - start), gradient[i]);
                }
                continue;
            }
            float bound = clipBound(gradient, start, end);
            float scale = norm.of(gradient, start, end, bound);
            LittleEndian.putFloat(bytes, 4 * b.header(k), scale);
            quantize(gradient, start, end, bound, scale);
        }
        packer.flush();
        return p;
    }

    private void quantize(float[] g, int start, int end, float bound, float scale) {
        if (scale == 0f || !Float.isFinite(scale)) {
            for (int i = start; i < end; i++) {
                packer.write(0, bits);
            }
            return;
        }
        half = (levels.length - 1) * 0.5f;
        ratio = half / scale;
        inverse = 1.0 / scale;
        int i = start;
        for (; i + 1 < end; i += 2) {
            long r = rng.nextLong();
            int first = index(clamp(g[i], bound), (int) (r >>> 40));
            int second = index(clamp(g[i + 1], bound), (int) (r >>> 16) & 0xFFFFFF);
            packer.write(first | second << bits, 2 * bits);
        }
        if (i < end) {
            packer.write(index(clamp(g[i], bound), (int) (rng.nextLong() >>> 40)), bits);
        }
    }

    /** The level index of value {@code v} of the current bucket, for a 24-bit uniform {@code u}. */
    private int index(float v, int u) {
        return uniform ? uniformIndex(v, u) : searchIndex(v * inverse, u);
    }

    /**
     * For uniform levels, {@code floor(t + u/2^24)} with {@code t} the position in level units above −1, which is
     * {@code floor(t) + 1} with probability {@code t − floor(t)}; exact in double precision and branch-free.
     */
    private int uniformIndex(float v, int u) {
        float t = v * ratio + half;
        return (int) (Math.min(Math.max(t, 0f), levels.length - 1) + u * 0x1.0p-24);
    }

    /** For any levels: a binary search for the neighbours, then the same unbiased choice between them. */
    private int searchIndex(double r, int u) {
        double[] l = levels;
        int lo = 0;
        int hi = l.length - 1;
        if (!(r > l[lo])) {
            return lo;
        }
        if (r >= l[hi]) {
            return hi;
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (l[mid] <= r) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo + (int) ((r - l[lo]) / (l[hi] - l[lo]) + u * 0x1.0p-24);
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (payload.bits() != payloadBits(length)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + length + " values: " + payload);
        }
        Buckets b = buckets.forLength(length);
        byte[] bytes = payload.bytes();
        reader.reset(bytes, 32L * b.header(b.count()));
        int mask = (1 << bits) - 1;
        for (int k = 0; k < b.count(); k++) {
            int end = offset + b.start(k + 1);
            int i = offset + b.start(k);
            if (b.raw(k)) {
                for (int j = 0; i < end; i++, j++) {
                    out[i] = LittleEndian.getFloat(bytes, 4 * (b.header(k) + j));
                }
                continue;
            }
            fillTable(LittleEndian.getFloat(bytes, 4 * b.header(k)));
            for (; i + 1 < end; i += 2) {
                int pair = reader.read(2 * bits);
                out[i] = table[pair & mask];
                out[i + 1] = table[pair >>> bits];
            }
            if (i < end) {
                out[i] = table[reader.read(bits)];
            }
        }
    }

    /** The decoded value of each level index for a bucket of norm {@code scale}: {@code scale·l_j}. */
    private void fillTable(float scale) {
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
        levels = initialLevels.clone();
        uniform = Arrays.equals(levels, uniformLevels(levels.length));
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
