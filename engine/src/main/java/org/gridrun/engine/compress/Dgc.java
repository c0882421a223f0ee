package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.ThresholdFormat;
import org.gridrun.engine.config.ConfigException;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.config.Settings;
import org.gridrun.engine.config.ValueType;

/**
 * Deep Gradient Compression: momentum correction, local accumulation, sampled-threshold sparsification and momentum
 * factor masking.
 *
 * <p>Each step, with momentum {@code m} ({@code dgc_momentum}): {@code u ← m·u + g}, {@code v ← v + u}. A threshold
 * is estimated from {@code s = max(1, ceil(sample_ratio·n))} magnitudes {@code |v_i|} at positions drawn uniformly
 * (with replacement) from the worker's own stream: the {@code ceil(ratio·s)}-th largest of them, aiming at about
 * {@code ratio·n} values. Every non-zero {@code v_i} with {@code |v_i|} at or above it is sent, and then zeroed in
 * both {@code v} and {@code u}; the rest stays in the accumulator, so the sum of what was sent plus {@code v} is
 * always the sum of the momentum-corrected gradients. The count is not capped: a sample that misjudges the
 * distribution sends more or fewer values (the paper's second, exact top-k pass over the selection is not done).
 *
 * <p>The payload is a {@link SparseFormat} list with its count, as {@link Threshold}'s. Positions differ per worker,
 * so payloads are gathered. The optimizer should then run without momentum of its own. State: {@code u}, {@code v}
 * and the random stream's position, all written by {@link #saveState}.
 *
 * <p>It also plans its encodes for a device ({@link ThresholdFormat#sampled}): the plan draws the sample's positions
 * as {@code encode} does (they do not depend on the values) and the device keeps {@code u} and {@code v} in the
 * worker's slot ({@link #keptInSlot}), accumulates, selects by the sample, sends and masks as here, byte for byte;
 * the memories fetch them back before the host reads them (a checkpoint, a host encode).
 */
public final class Dgc extends RandomizedCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "dgc";

    private final double ratio;
    private final float momentum;
    private final double sampleRatio;
    private final BitPacker packer = new BitPacker();
    private final BitReader reader = new BitReader();
    private final ResidualMemory velocity = new ResidualMemory();
    private final ResidualMemory accumulator = new ResidualMemory();
    private float[] sample = new float[0];
    private final TopKSelector selector = new TopKSelector();
    private int[] indices = new int[0];

    Dgc(double ratio, double momentum, double sampleRatio, long seed, long stream) {
        super(seed, stream);
        this.ratio = ratio;
        this.momentum = (float) momentum;
        this.sampleRatio = sampleRatio;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("ratio", ratio);
        config.put("dgc_momentum", (double) momentum);
        config.put("sample_ratio", sampleRatio);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_GATHER;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        float[] u = velocity.current(length);
        float[] v = accumulator.current(length);
        if (indices.length < length) {
            indices = new int[length];
        }
        for (int i = 0; i < length; i++) {
            u[i] = momentum * u[i] + gradient[offset + i];
            v[i] += u[i];
        }
        float threshold = sampledThreshold(v, length);
        int k = 0;
        for (int i = 0; i < length; i++) {
            if (v[i] != 0f && !(Math.abs(v[i]) < threshold)) {
                indices[k++] = i;
            }
        }
        Payload p = payload(Threshold.payloadBits(length, k), Threshold.sideBits(length, k), length);
        packer.reset(p.bytes(), 0);
        packer.write(k, SparseFormat.countWidth(length));
        SparseFormat.write(packer, v, 0, length, indices, k);
        packer.flush();
        for (int j = 0; j < k; j++) {
            u[indices[j]] = 0f;
            v[indices[j]] = 0f;
        }
        return p;
    }

    /** The {@code ceil(ratio·s)}-th largest of {@code s} sampled magnitudes of the accumulator {@code v}. */
    private float sampledThreshold(float[] v, int n) {
        if (n == 0) {
            return 0f;
        }
        int s = sampleSize(n);
        if (sample.length < s) {
            sample = new float[s];
        }
        for (int j = 0; j < s; j++) {
            sample[j] = v[rng.nextInt(n)];
        }
        return selector.kthLargestMagnitude(sample, 0, s, top(s));
    }

    /** How many magnitudes the threshold is estimated from: {@code max(1, ceil(sample_ratio·n))}, at most n. */
    private int sampleSize(int n) {
        return (int) Math.min(n, Math.max(1, (long) Math.ceil(sampleRatio * n)));
    }

    /** Which largest of {@code s} sampled magnitudes is the threshold: {@code max(1, ceil(ratio·s))}, at most s. */
    private int top(int s) {
        return (int) Math.min(s, Math.max(1, (long) Math.ceil(ratio * s)));
    }

    /**
     * {@inheritDoc} The sample's positions, drawn as {@code encode} draws them, the momentum, and the least payload
     * (a count of none); the device tells the real size. A gradient of no values stays on the host.
     */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        if (length == 0) {
            return Optional.empty();
        }
        int s = sampleSize(length);
        int[] positions = new int[s];
        for (int j = 0; j < s; j++) {
            positions[j] = rng.nextInt(length);
        }
        return Optional.of(new DevicePlan(ThresholdFormat.sampled(length, positions, top(s), momentum), 0, 0,
                Threshold.payloadBits(length, 0), Threshold.sideBits(length, 0)));
    }

    /** {@inheritDoc} The momentum {@code u} and the accumulator {@code v}. */
    @Override
    public List<ResidualMemory> keptInSlot() {
        return List.of(velocity, accumulator);
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int n = payload.elements();
        checkRange(out, offset, n);
        reader.reset(payload.bytes(), 0);
        int k = reader.read(SparseFormat.countWidth(n));
        if (k > n || payload.bits() != Threshold.payloadBits(n, k)) {
            throw new IllegalArgumentException("not a " + this + " payload of " + n + " values: " + payload);
        }
        if (indices.length < k) {
            indices = new int[k];
        }
        SparseFormat.read(reader, out, offset, n, k, indices);
    }

    /** The momentum buffer {@code u} (a view; do not modify). */
    float[] velocity() {
        return velocity.current();
    }

    /** The accumulator {@code v}: what has been computed but not yet sent (a view; do not modify). */
    float[] accumulator() {
        return accumulator.current();
    }

    @Override
    public Compressor copy(long stream) {
        return new Dgc(ratio, momentum, sampleRatio, seed, stream);
    }

    @Override
    public void reset() {
        super.reset();
        velocity.replace(new float[0]);
        accumulator.replace(new float[0]);
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        super.saveState(out);
        float[] u = velocity.current();
        float[] v = accumulator.current();
        out.writeInt(u.length);
        for (int i = 0; i < u.length; i++) {
            out.writeFloat(u[i]);
            out.writeFloat(v[i]);
        }
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        super.restoreState(in);
        int n = in.readInt();
        float[] u = new float[n];
        float[] v = new float[n];
        indices = new int[n];
        for (int i = 0; i < n; i++) {
            u[i] = in.readFloat();
            v[i] = in.readFloat();
        }
        velocity.replace(u);
        accumulator.replace(v);
    }

    /** Registers {@code dgc} and declares its parameters. */
    public static final class Provider extends MethodProvider {
        private static final List<ConfigKey> PARAMETERS = List.of(
                new ConfigKey("ratio", ValueType.DOUBLE, 0.001,
                        "target fraction of values sent per step, in (0, 1]"),
                new ConfigKey("dgc_momentum", ValueType.DOUBLE, 0.9,
                        "momentum of the momentum correction u <- m·u + g, in [0, 1)"),
                new ConfigKey("sample_ratio", ValueType.DOUBLE, 0.01,
                        "fraction of accumulator values sampled to estimate the threshold, in (0, 1]"));

        public Provider() {
            super(NAME, "deep gradient compression: momentum correction, local accumulation, sampled threshold",
                    Aggregation.ALL_GATHER, PARAMETERS);
        }

        @Override
        public Compressor create(Settings params, long seed) {
            double ratio = SparseFormat.fraction(params, "ratio");
            double sampleRatio = SparseFormat.fraction(params, "sample_ratio");
            double momentum = params.doubleValue("dgc_momentum");
            if (!(momentum >= 0 && momentum < 1)) {
                throw new ConfigException("dgc_momentum must be in [0, 1), found " + ValueType.show(momentum));
            }
            return new Dgc(ratio, momentum, sampleRatio, seed, 0);
        }
    }
}
