package org.gridrun.engine.train;

import java.util.Arrays;
import java.util.Optional;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.DeviceCodec;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.DeviceEncodable;
import org.gridrun.engine.compress.DevicePlan;
import org.gridrun.engine.compress.Payload;

/**
 * A step's encodes and decodes on the backend's device, where it has a codec ({@link Backend#deviceCodec()}) and the
 * workers' compressors plan for it ({@link DeviceEncodable}): the gradients then never cross to the host; when every
 * worker's payload is on the device the collective decodes there too and nothing crosses, else the device payloads'
 * bytes are downloaded for the host's collective. Payloads and results are the host encoder's to the bit.
 * {@code -Dgridrun.device_encode=false} keeps every encode on the host.
 */
final class DeviceEncoding {
    private final Backend backend;
    private final DeviceCodec codec;
    /** This step's plan of each worker, null where the host encodes. */
    private final DevicePlan[] plans;
    /** Each worker's last payload, reused while its size stays (its bytes are written only when downloaded). */
    private final Payload[] payloads;
    /** A copy of the gradient being encoded, for a method whose level fit computes gradients into the worker's. */
    private Tensor held;

    private DeviceEncoding(Backend backend, DeviceCodec codec, int workers) {
        this.backend = backend;
        this.codec = codec;
        this.plans = new DevicePlan[workers];
        this.payloads = new Payload[workers];
    }

    /** The device encoding of {@code backend} for {@code workers} workers, or null where it has none or it is off. */
    static DeviceEncoding of(Backend backend, int workers) {
        if ("false".equals(System.getProperty("gridrun.device_encode"))) {
            return null;
        }
        return backend.deviceCodec().map(codec -> new DeviceEncoding(backend, codec, workers)).orElse(null);
    }

    /** Forgets the last step's plans; call before the first worker's encode of a step. */
    void beginStep() {
        Arrays.fill(plans, null);
    }

    /**
     * Worker {@code w}'s payload of {@code gradient}, encoded on the device and left there (its bytes are this step's
     * only after {@link #download}); null, with nothing drawn, where the host must encode.
     */
    Payload encode(int w, Compressor compressor, Tensor gradient) {
        if (!(compressor instanceof DeviceEncodable encodable)) {
            return null;
        }
        Tensor source = gradient;
        if (encodable.levelsAdapt()) {
            // a refit while planning draws sampled gradients into the worker's gradient tensor (Worker.sampleGradient)
            if (held == null || held.size() != gradient.size()) {
                held = backend.allocate(1, gradient.size());
            }
            backend.copy(gradient, held);
            source = held;
        }
        Optional<DevicePlan> planned = encodable.planDeviceEncode(gradient.size());
        if (planned.isEmpty()) {
            return null;
        }
        DevicePlan plan = planned.get();
        if (!codec.accepts(plan.format())) {
            // the plan took the step's draws: encoding on the host now would draw them again
            throw new IllegalStateException(compressor.name() + " planned a " + plan.format().getClass()
                    .getSimpleName() + " that " + backend.name() + "'s device codec does not take");
        }
        codec.encode(w, source, plan.format(), plan.key(), plan.firstDraw());
        backend.synchronize();
        plans[w] = plan;
        Payload last = payloads[w];
        if (last == null || last.bits() != plan.payloadBits() || last.sideBits() != plan.sideBits()
                || last.elements() != plan.format().length()) {
            payloads[w] = plan.payload();
        }
        return payloads[w];
    }

    /** Whether every worker's payload of this step is on the device. */
    boolean allOnDevice() {
        for (DevicePlan plan : plans) {
            if (plan == null) {
                return false;
            }
        }
        return true;
    }

    /** Downloads the bytes of every payload this step encoded on the device into {@code payloads}. */
    void download(Payload[] payloads) {
        for (int w = 0; w < plans.length; w++) {
            if (plans[w] != null) {
                codec.download(w, plans[w].format(), payloads[w].bytes());
            }
        }
    }

    /** Decodes every worker's payload into their mean on the device, as the host's collective would. */
    void decodeIntoMean(Tensor mean) {
        for (int w = 0; w < plans.length; w++) {
            codec.decodeIntoMean(w, plans[w].format(), w, plans.length, mean);
        }
        backend.synchronize();
    }
}
