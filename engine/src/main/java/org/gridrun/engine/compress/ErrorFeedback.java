package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Error feedback (residual memory) around any method: each step compresses the gradient plus what earlier steps
 * failed to send, and keeps the new difference, so that the sum of what was sent tracks the sum of the gradients.
 *
 * <p>With memory {@code e} (zero at first): {@code v = g + e}, send {@code C(v)}, {@code e ← v − D(C(v))}. The
 * payload is the inner method's, bit for bit; the wrapper sends nothing of its own. Requested for any method with the
 * parameter {@code error_feedback: true}; methods that keep their own residual by definition (PowerSGD, JointSQ,
 * DGC) need not be wrapped.
 *
 * <p>On a device ({@link DeviceEncodable}, where the inner method plans for one) the trainer may keep the residual
 * ({@link ResidualFeedback}).
 */
public final class ErrorFeedback implements Compressor, DeviceEncodable, ResidualFeedback {
    /** The parameter every method accepts that wraps it. */
    public static final String PARAMETER = "error_feedback";

    private final Compressor inner;
    private final ResidualMemory memory = new ResidualMemory();
    private float[] corrected = new float[0];
    private float[] decoded = new float[0];

    public ErrorFeedback(Compressor inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public Map<String, Object> config() {
        Map<String, Object> config = new LinkedHashMap<>(inner.config());
        config.put(PARAMETER, true);
        return config;
    }

    @Override
    public Aggregation aggregation() {
        return inner.aggregation();
    }

    @Override
    public void bind(TensorLayout layout) {
        inner.bind(layout);
    }

    /** Passes the sampler to the inner method, which fits to raw gradients, not to the corrected ones it encodes. */
    @Override
    public void bindSampler(GradientSampler sampler) {
        inner.bindSampler(sampler);
    }

    /** {@inheritDoc} The inner method's, which encodes the corrected gradient on the device. */
    @Override
    public java.util.List<ResidualMemory> keptInSlot() {
        return inner instanceof DeviceEncodable encodable ? encodable.keptInSlot() : java.util.List.of();
    }

    /**
     * {@inheritDoc} The inner method's plan of the corrected gradient {@code g + e}; empty where it has none, and
     * where it keeps a memory of its own (a device keeps one residual or momentum a worker).
     */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        if (inner instanceof ResidualFeedback own && own.keepsResidual()) {
            return Optional.empty();
        }
        return inner instanceof DeviceEncodable encodable ? encodable.planDeviceEncode(length) : Optional.empty();
    }

    /** {@inheritDoc} The inner method sees the payload it planned. */
    @Override
    public void sawDevicePayload(Payload payload) {
        if (inner instanceof DeviceEncodable encodable) {
            encodable.sawDevicePayload(payload);
        }
    }

    /** The inner method's diagnostics (its last payload's widths, its levels). */
    @Override
    public Map<String, Double> diagnostics() {
        return inner.diagnostics();
    }

    @Override
    public boolean levelsAdapt() {
        return inner instanceof DeviceEncodable encodable && encodable.levelsAdapt();
    }

    @Override
    public boolean refitsInNextPlan() {
        return inner instanceof DeviceEncodable encodable && encodable.refitsInNextPlan();
    }

    @Override
    public ResidualMemory residual() {
        return memory;
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        float[] e = memory.current(length);
        if (corrected.length != length) {
            corrected = new float[length];
            decoded = new float[length];
        }
        for (int i = 0; i < length; i++) {
            corrected[i] = gradient[offset + i] + e[i];
        }
        Payload payload = inner.encode(corrected, 0, length);
        inner.decode(payload, decoded, 0);
        for (int i = 0; i < length; i++) {
            e[i] = corrected[i] - decoded[i];
        }
        return payload;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        inner.decode(payload, out, offset);
    }

    @Override
    public Compressor copy(long stream) {
        return new ErrorFeedback(inner.copy(stream));
    }

    @Override
    public void reset() {
        inner.reset();
        memory.replace(new float[0]);
    }

    /** The current residual: what has been computed but not yet sent (a view; do not modify). */
    float[] memory() {
        return memory.current();
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        inner.saveState(out);
        StateIo.writeFloats(out, memory.current());
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        inner.restoreState(in);
        float[] restored = StateIo.readFloats(in, "error-feedback residual");
        memory.replace(restored);
        corrected = new float[restored.length];
        decoded = new float[restored.length];
    }

    @Override
    public String toString() {
        return inner + " with error feedback";
    }
}
