package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.ThresholdFormat;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * Threshold sparsification: sends every value with {@code |g| ≥ threshold}, exactly, and drops the rest.
 *
 * <p>The number sent varies, so the payload is a {@link SparseFormat} list with its count first:
 * {@code countWidth(n) + k·(ceil(log2 n) + 32)} bits. NaN values are always sent. Payloads are gathered. It has no
 * state and draws no random numbers. It also plans its encodes for a device ({@link ThresholdFormat}), which sends
 * the same values and writes the same bytes.
 */
public final class Threshold extends BaseCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "threshold";

    private final double threshold;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private int[] indices = new int[0];

    Threshold(double threshold, long seed, long stream) {
        super(seed, stream);
        this.threshold = threshold;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("threshold", threshold);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    /** The exact payload size for {@code n} values of which {@code k} are sent. */
    public static long payloadBits(int n, int k) {
        return SparseFormat.countWidth(n) + SparseFormat.listBits(n, k);
    }

    /** The bits of such a payload that are not values: the count and the indices. */
    static long sideBits(int n, int k) {
        return SparseFormat.countWidth(n) + (long) k * SparseFormat.indexWidth(n);
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        if (indices.length < length) {
            indices = new int[length];
        }
        int k = 0;
        for (int i = 0; i < length; i++) {
            float a = Math.abs(gradient[offset + i]);
            if (a >= threshold || a != a) {
                indices[k++] = i;
            }
        }
        Payload p = payload(payloadBits(length, k), sideBits(length, k), length);
        packer.reset(p.bytes(), 0);
        packer.write(k, SparseFormat.countWidth(length));
        SparseFormat.write(packer, gradient, offset, length, indices, k);
        packer.flush();
        return p;
    }

    /**
     * {@inheritDoc} Nothing to draw: the plan is the smallest float magnitude at or above the threshold (a float is
     * at least the threshold exactly when it is at least that one), and the least payload, a count of none.
     */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        float least = (float) threshold;
        if (least < threshold) {
            least = Math.nextUp(least);
        }
        return Optional.of(new DevicePlan(ThresholdFormat.atLeast(length, least), 0, 0, payloadBits(length, 0),
                sideBits(length, 0)));
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int n = payload.elements();
        checkRange(out, offset, n);
        reader.reset(payload.bytes(), 0);
        int k = reader.read(SparseFormat.countWidth(n));
        if (k > n || payload.bits() != payloadBits(n, k)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + n + " values: " + payload);
        }
        if (indices.length < k) {
            indices = new int[k];
        }
        SparseFormat.read(reader, out, offset, n, k, indices);
    }

    @Override
    public Compressor copy(long stream) {
        return new Threshold(threshold, seed, stream);
    }

    /** Registers {@code threshold} and declares its parameter. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("threshold", ValueType.DOUBLE, 0.001,
                        "every value with |g| >= threshold is sent; not negative"));

        public Provider() {
            super(NAME, "every value of magnitude at least threshold, indices and float32 values",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new Threshold(params.nonNegativeDouble("threshold"), seed, 0);
        }
    }
}
