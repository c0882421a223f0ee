package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.random.CounterRng;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * QSGD with bucketing: each bucket is scaled by its L2 norm and every value is rounded stochastically, without
 * bias, to one of {@code 2^bits} uniform levels in [-1, 1].
 *
 * <p>The levels follow the ALQ/AMQ seed: {@code linspace(-1, 1, 2^bits)}, signed, with no separate sign bit (so
 * 3-bit levels have no zero). A value {@code g} of a bucket with norm {@code ‖b‖} has {@code r = g/‖b‖} in [-1, 1],
 * lying between two neighbouring levels {@code l_j ≤ r ≤ l_{j+1}}; it becomes {@code l_{j+1}} with probability
 * {@code (r − l_j)/(l_{j+1} − l_j)} and {@code l_j} otherwise, so the decoded value {@code ‖b‖·l} has expectation
 * {@code g} and variance at most {@code ‖b‖²·s²/4}, where {@code s = 2/(2^bits − 1)} is the level spacing.
 *
 * <p>Wire format: the norms of all buckets first, as little-endian float32, then one {@code bits}-bit level index
 * per value, packed contiguously least significant bit first with no padding between buckets (the last bucket may
 * be shorter). A payload of {@code n} values in {@code B = ceil(n / bucket_size)} buckets holds exactly
 * {@code 32·B + bits·n} bits. A bucket whose norm is zero decodes to zeros. Norms differ per worker, so payloads
 * are gathered, not summed.
 *
 * <p>Its only state is the position of its random stream, which {@link #saveState} writes (24 bytes).
 */
public final class Qsgd extends BaseCompressor {
    /** The short name. */
    public static final String NAME = "qsgd";

    private final int bits;
    private final int bucketSize;
    private final int levels;
    private final float[] table;
    private final CounterRng rng;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();

    Qsgd(int bits, int bucketSize, long seed, long stream) {
        super(seed, stream);
        this.bits = bits;
        this.bucketSize = bucketSize;
        this.levels = 1 << bits;
        this.table = new float[levels];
        this.rng = new CounterRng(seed, stream);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("bits", (long) bits);
        config.put("bucket_size", (long) bucketSize);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    /** The exact payload size for {@code length} values: {@code 32·buckets + bits·length}. */
    public long payloadBits(int length) {
        return 32L * buckets(length) + (long) bits * length;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        int buckets = buckets(length);
        Payload p = payload(payloadBits(length), length);
        byte[] bytes = p.bytes();
        packer.reset(bytes, 32L * buckets);
        for (int b = 0; b < buckets; b++) {
            int start = offset + b * bucketSize;
            int end = Math.min(start + bucketSize, offset + length);
            float norm = norm(gradient, start, end);
            LittleEndian.putFloat(bytes, 4 * b, norm);
            quantize(gradient, start, end, norm);
        }
        packer.flush();
        return p;
    }

    private static float norm(float[] g, int start, int end) {
        double sum = 0;
        for (int i = start; i < end; i++) {
            sum += (double) g[i] * g[i];
        }
        return (float) Math.sqrt(sum);
    }

    /**
     * Writes the level index of every value of a bucket; each 64-bit random draw decides two values (its top 24
     * bits the first, the next 24 bits the second) and their two indices go to the packer as one code.
     */
    private void quantize(float[] g, int start, int end, float norm) {
        if (norm == 0f || !Float.isFinite(norm)) {
            for (int i = start; i < end; i++) {
                packer.write(0, bits);
            }
            return;
        }
        float half = (levels - 1) * 0.5f;
        float scale = half / norm;
        int i = start;
        for (; i + 1 < end; i += 2) {
            long r = rng.nextLong();
            int first = index(g[i] * scale + half, (int) (r >>> 40));
            int second = index(g[i + 1] * scale + half, (int) (r >>> 16) & 0xFFFFFF);
            packer.write(first | second << bits, 2 * bits);
        }
        if (i < end) {
            packer.write(index(g[i] * scale + half, (int) (rng.nextLong() >>> 40)), bits);
        }
    }

    /**
     * The level index for position {@code t} (in level units above −1) and a 24-bit uniform {@code u}:
     * {@code floor(t + u/2^24)}, which is {@code floor(t) + 1} with probability {@code t − floor(t)}.
     *
     * <p>The sum is exact in double precision, so the rounding is unbiased up to the 2^-24 resolution of {@code u},
     * and it has no branch to mispredict.
     */
    private int index(float t, int u) {
        return (int) (Math.min(Math.max(t, 0f), levels - 1) + u * 0x1.0p-24);
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        if (payload.bits() != payloadBits(length)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + length + " values: " + payload);
        }
        int buckets = buckets(length);
        byte[] bytes = payload.bytes();
        reader.reset(bytes, 32L * buckets);
        for (int b = 0; b < buckets; b++) {
            int start = offset + b * bucketSize;
            int end = Math.min(start + bucketSize, offset + length);
            fillTable(LittleEndian.getFloat(bytes, 4 * b));
            int mask = levels - 1;
            int i = start;
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

    /** The decoded value of each level index for a bucket of norm {@code norm}: {@code norm·(−1 + j·s)}. */
    private void fillTable(float norm) {
        if (norm == 0f || !Float.isFinite(norm)) {
            java.util.Arrays.fill(table, norm == 0f ? 0f : Float.NaN);
            return;
        }
        double spacing = 2.0 / (levels - 1);
        for (int j = 0; j < levels; j++) {
            table[j] = (float) (norm * (-1.0 + j * spacing));
        }
    }

    private int buckets(int length) {
        return (int) ((length + (long) bucketSize - 1) / bucketSize);
    }

    @Override
    public Compressor copy(long stream) {
        return new Qsgd(bits, bucketSize, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        rng.seek(0);
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        rng.saveState(out);
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        rng.restoreState(in);
    }

    /** Registers {@code qsgd} and declares its parameters. */
    public static final class Provider implements CompressorProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("bits", ValueType.INT, 4L,
                        "bits per value: 2^bits signed uniform levels in [-1, 1], in [1, 8]"),
                new ConfigKey("bucket_size", ValueType.INT, 8192L,
                        "values per bucket; each bucket is scaled by its own L2 norm (sent as float32)"));

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String summary() {
            return "bucketed L2 norm, unbiased stochastic rounding to 2^bits uniform levels in [-1, 1]";
        }

        @Override
        public Aggregation aggregation() {
            return Aggregation.ALL_GATHER;
        }

        @Override
        public List<ConfigKey> parameters() {
            return PARAMETERS;
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new Qsgd(params.intIn("bits", 1, 8), params.positiveInt("bucket_size"), seed, 0);
        }
    }
}
