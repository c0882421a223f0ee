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
 * <p>On a device ({@link DeviceEncodable}, where the inner method plans for one) the trainer keeps the residual beside
 * the payload and computes the same floats there; while it does, the residual here is stale and is fetched from the
 * device ({@link DeviceResidual#fetch}) before anything here reads it: a host encode, {@link #saveState},
 * {@link #memory()}.
 */
public final class ErrorFeedback implements Compressor, DeviceEncodable {
    /** The parameter every method accepts that wraps it. */
    public static final String PARAMETER = "error_feedback";

    /** A device's copy of the residual, newer than the one here while it keeps it. */
    public interface DeviceResidual {
        /** Copies the device's residual into {@code into}, of its length. */
        void fetch(float[] into);
    }

    private final Compressor inner;
    private float[] memory = new float[0];
    private float[] corrected = new float[0];
    private float[] decoded = new float[0];
    /** The device that holds the current residual, or null where {@link #memory} is current. */
    private DeviceResidual onDevice;

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

    /** {@inheritDoc} The inner method's plan of the corrected gradient {@code g + e}; empty where it has none. */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        return inner instanceof DeviceEncodable encodable ? encodable.planDeviceEncode(length) : Optional.empty();
    }

    @Override
    public boolean levelsAdapt() {
        return inner instanceof DeviceEncodable encodable && encodable.levelsAdapt();
    }

    /**
     * The current residual of {@code length} values (zero where the last was of another length, as {@link #encode}
     * starts one), fetched from the device that kept it; a view, do not modify.
     */
    public float[] residual(int length) {
        settle();
        if (memory.length != length) {
            memory = new float[length];
            corrected = new float[length];
            decoded = new float[length];
        }
        return memory;
    }

    /** Records that {@code device} now holds the current residual (of the length last asked of {@link #residual}). */
    public void residualKeptBy(DeviceResidual device) {
        onDevice = device;
    }

    /** Whether {@code device} holds the current residual: nothing here has read or replaced it since it did. */
    public boolean residualIsOn(DeviceResidual device) {
        return onDevice == device;
    }

    /** Makes {@link #memory} current, fetching it from the device that kept it. */
    private void settle() {
        if (onDevice != null) {
            DeviceResidual device = onDevice;
            onDevice = null;
            device.fetch(memory);
        }
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        residual(length);
        for (int i = 0; i < length; i++) {
            corrected[i] = gradient[offset + i] + memory[i];
        }
        Payload payload = inner.encode(corrected, 0, length);
        inner.decode(payload, decoded, 0);
        for (int i = 0; i < length; i++) {
            memory[i] = corrected[i] - decoded[i];
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
        memory = new float[0];
        onDevice = null;
    }

    /** The current residual: what has been computed but not yet sent (a view; do not modify). */
    float[] memory() {
        settle();
        return memory;
    }

    @Override
    public void saveState(DataOutput out) throws IOException {
        settle();
        inner.saveState(out);
        StateIo.writeFloats(out, memory);
    }

    @Override
    public void restoreState(DataInput in) throws IOException {
        inner.restoreState(in);
        memory = StateIo.readFloats(in, "error-feedback residual");
        onDevice = null;
        corrected = new float[memory.length];
        decoded = new float[memory.length];
    }

    @Override
    public String toString() {
        return inner + " with error feedback";
    }
}
