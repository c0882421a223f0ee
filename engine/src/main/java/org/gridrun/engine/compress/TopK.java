package org.gridrun.engine.compress;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.TopKFormat;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * Top-k sparsification: keeps the {@code k = ceil(ratio·n)} values of largest magnitude, exactly, and drops the rest.
 *
 * <p>Selection is exact (quickselect, O(n) on average); equal magnitudes are broken by position, lower first, so a
 * gradient always yields the same set. The payload is a {@link SparseFormat} list without a count (the receiver
 * knows {@code k} from {@code n}): {@code k·(ceil(log2 n) + 32)} bits. Kept values decode exactly, the others to
 * zero. Each worker keeps its own positions, so payloads are gathered. Biased; pair it with
 * {@code error_feedback: true}. It has no state and draws no random numbers. It also plans its encodes for a device
 * ({@link TopKFormat}), which selects the same set and writes the same bytes.
 */
public final class TopK extends BaseCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "topk";

    private final double ratio;
    private final TopKSelector selector = new TopKSelector();
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private int[] indices = new int[0];

    TopK(double ratio, long seed, long stream) {
        super(seed, stream);
        this.ratio = ratio;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("ratio", ratio);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    /** How many values a gradient of {@code n} keeps: {@code ceil(ratio·n)}, at most {@code n}. */
    public int kept(int n) {
        return (int) Math.min(n, (long) Math.ceil(ratio * n));
    }

    /** The exact payload size for {@code n} values. */
    public long payloadBits(int n) {
        return SparseFormat.listBits(n, kept(n));
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        int k = kept(length);
        Payload p = payload(payloadBits(length), (long) kept(length) * SparseFormat.indexWidth(length), length);
        int[] top = selector.select(gradient, offset, length, k);
        packer.reset(p.bytes(), 0);
        SparseFormat.write(packer, gradient, offset, length, top, k);
        packer.flush();
        return p;
    }

    /** {@inheritDoc} Nothing to draw: the plan is the length and the count. */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        int k = kept(length);
        return Optional.of(new DevicePlan(new TopKFormat(length, k), 0, 0, payloadBits(length),
                (long) k * SparseFormat.indexWidth(length)));
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int n = payload.elements();
        checkRange(out, offset, n);
        if (payload.bits() != payloadBits(n)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + n + " values: " + payload);
        }
        int k = kept(n);
        if (indices.length < k) {
            indices = new int[k];
        }
        SparseFormat.read(reader.reset(payload.bytes(), 0), out, offset, n, k, indices);
    }

    @Override
    public Compressor copy(long stream) {
        return new TopK(ratio, seed, stream);
    }

    /** Registers {@code topk} and declares its parameter. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("ratio", ValueType.DOUBLE, 0.01,
                        "fraction of values kept, in (0, 1]: the ceil(ratio·n) largest magnitudes"));

        public Provider() {
            super(NAME, "exact top-k by magnitude, indices and float32 values",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new TopK(SparseFormat.fraction(params, "ratio"), seed, 0);
        }
    }
}
