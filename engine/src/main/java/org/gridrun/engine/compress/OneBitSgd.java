package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.OneBitFormat;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * 1-bit SGD (Seide et al.): one bit per value, reconstructed per bucket as the mean of its non-negative values or
 * the mean of its negative values, with error feedback built in.
 *
 * <p>With residual {@code e} (zero at first), {@code v = g + e}; in each bucket of {@code bucket_size} consecutive
 * values, {@code μ+} is the mean of the values {@code ≥ 0} and {@code μ−} the mean of those {@code < 0} (0 for an
 * empty side); a value decodes to {@code μ+} or {@code μ−} by its sign, and {@code e ← v − D(C(v))}. Since each
 * side's reconstruction is its mean, the residual sums to zero over each side of each bucket.
 *
 * <p>Wire format: per bucket, {@code μ+} then {@code μ−} as little-endian float32, all buckets first, then one bit
 * per value (1 for negative), least significant bit first. A payload of {@code n} values in {@code B} buckets holds
 * exactly {@code 64·B + n} bits. The paper quantises per column of a weight matrix; here buckets run over the flat
 * gradient (a bucket as long as a column reproduces that for one matrix). Reconstruction values are per worker, so
 * payloads are gathered.
 *
 * <p>Each side's sum follows {@link ChainSums#sides}' order (a NaN mean written as the canonical NaN), so the encode
 * also runs on a device ({@link #planDeviceEncode}, {@link OneBitFormat}), the residual kept in the worker's slot.
 *
 * <p>State: the residual, written by {@link #saveState} as a length and the float32 values. No random numbers.
 */
public final class OneBitSgd extends BaseCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "onebit";

    private final int bucketSize;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private final ResidualMemory residual = new ResidualMemory();
    private float[] corrected = new float[0];
    /** A bucket's two side sums ({@link ChainSums#sides}). */
    private final double[] sides = new double[2];

    OneBitSgd(int bucketSize, long seed, long stream) {
        super(seed, stream);
        this.bucketSize = bucketSize;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("bucket_size", (long) bucketSize);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    /** The exact payload size for {@code length} values: {@code 64·buckets + length}. */
    public long payloadBits(int length) {
        return 64L * buckets(length) + length;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        float[] residual = this.residual.current(length);
        if (corrected.length != length) {
            corrected = new float[length];
        }
        for (int i = 0; i < length; i++) {
            corrected[i] = gradient[offset + i] + residual[i];
        }
        int buckets = buckets(length);
        Payload p = payload(payloadBits(length), 64L * buckets, length);
        byte[] bytes = p.bytes();
        for (int b = 0; b < buckets; b++) {
            int start = b * bucketSize;
            int end = Math.min(start + bucketSize, length);
            int below = ChainSums.sides(corrected, start, end, sides);
            float positive = mean(sides[0], end - start - below);
            float negative = mean(sides[1], below);
            LittleEndian.putFloat(bytes, 8 * b, positive);
            LittleEndian.putFloat(bytes, 8 * b + 4, negative);
            SignBits.residual(corrected, start, end, negative, positive, residual);
        }
        packer.reset(bytes, 64L * buckets);
        SignBits.write(packer, corrected, 0, length);
        packer.flush();
        return p;
    }

    /** A side's mean from its sum and count (0 for none), a NaN as the canonical one. */
    private static float mean(double sum, int count) {
        float mean = count == 0 ? 0f : (float) (sum / count);
        return Float.isNaN(mean) ? Float.NaN : mean;
    }

    /** {@inheritDoc} No draws; the residual kept in the worker's slot ({@link #keptInSlot}). */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        return Optional.of(new DevicePlan(new OneBitFormat(bucketSize, length), 0, 0, payloadBits(length),
                64L * buckets(length)));
    }

    /** {@inheritDoc} The residual {@code e}. */
    @Override
    public List<ResidualMemory> keptInSlot() {
        return List.of(residual);
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
        reader.reset(bytes, 64L * buckets);
        for (int b = 0; b < buckets; b++) {
            int start = b * bucketSize;
            int count = Math.min(bucketSize, length - start);
            SignBits.read(reader, out, offset + start, count, LittleEndian.getFloat(bytes, 8 * b + 4),
                    LittleEndian.getFloat(bytes, 8 * b));
        }
    }

    private int buckets(int length) {
        return (int) ((length + (long) bucketSize - 1) / bucketSize);
    }

    @Override
    public Compressor copy(long stream) {
        return new OneBitSgd(bucketSize, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        residual.replace(new float[0]);
    }

    /** The current residual (a view; do not modify). */
    float[] residual() {
        return residual.current();
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        StateIo.writeFloats(out, residual.current());
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        residual.replace(StateIo.readFloats(in, "residual"));
    }

    /** Registers {@code onebit} and declares its parameter. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("bucket_size", ValueType.INT, 8192L,
                        "values per bucket; each bucket sends the means of its non-negative and negative values"));

        public Provider() {
            super(NAME,
                    "1-bit SGD: sign bit per value, per-bucket means of each sign as reconstruction, error feedback",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new OneBitSgd(params.positiveInt("bucket_size"), seed, 0);
        }
    }
}
