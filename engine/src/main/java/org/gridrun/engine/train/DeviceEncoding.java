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
import org.gridrun.engine.compress.ResidualFeedback;

/**
 * A step's encodes and decodes on the backend's device, where it has a codec ({@link Backend#deviceCodec()}) and the
 * workers' compressors plan for it ({@link DeviceEncodable}): the gradients then never cross to the host; when every
 * worker's payload is on the device the collective decodes there too and nothing crosses, else the device payloads'
 * bytes are downloaded for the host's collective. Payloads and results are the host encoder's to the bit.
 * {@code -Dgridrun.device_encode=false} keeps every encode on the host.
 *
 * <p>A method with error feedback ({@link ResidualFeedback}: {@code error_feedback: true}, {@code efsignsgd}) keeps
 * its residual {@code e} here, on the device, as the host encoder does: {@code v = g + e}, the payload of {@code v},
 * {@code e ← v − D(C(v))}; the method fetches it back whenever the host reads it (a host step, a checkpoint), and a
 * step here uploads it again after the host has. A method that keeps vectors of its own between steps (DGC) has the
 * codec keep them in its slot, by the same protocol ({@link KeptVectors}).
 */
final class DeviceEncoding {
    private final Backend backend;
    private final DeviceCodec codec;
    /** This step's plan of each worker, null where the host encodes. */
    private final DevicePlan[] plans;
    /** Each worker's last payload, reused while its size stays (its bytes are written only when downloaded). */
    private final Payload[] payloads;
    /**
     * A copy of the gradient being encoded, for a step whose plan refits levels from gradients drawn into the
     * worker's.
     */
    private Tensor held;
    /** Each worker's error-feedback residual on the device, null until it has one. */
    private final Residual[] residuals;
    /** The vectors methods keep in the workers' slots (DGC's momentum and accumulator). */
    private final KeptVectors kept;
    /** Whether the step under way is replayed as one graph ({@link #beginStep}). */
    private boolean graphed;

    private DeviceEncoding(Backend backend, DeviceCodec codec, int workers) {
        this.backend = backend;
        this.codec = codec;
        this.plans = new DevicePlan[workers];
        this.payloads = new Payload[workers];
        this.residuals = new Residual[workers];
        this.kept = new KeptVectors(codec, workers);
    }

    /**
     * A worker's residual on the device, with the corrected gradient it encodes and that payload decoded: the floats
     * of the host's encode ({@code ErrorFeedback}, {@code SignSgd}), whose additions {@code axpy} with ±1 rounds alike.
     */
    private final class Residual implements ResidualFeedback.DeviceResidual {
        final Tensor memory;
        final Tensor corrected;
        final Tensor decoded;

        Residual(int length) {
            memory = backend.allocate(1, length);
            corrected = backend.allocate(1, length);
            decoded = backend.allocate(1, length);
        }

        @Override
        public void fetch(float[] into) {
            backend.download(memory, into, 0);
        }

        /**
         * What the method encodes of {@code gradient}, its memory uploaded where the host has it: {@code g + e} with
         * a residual, or the updated momentum {@code m ← β·m + (1 − β)·g} itself, which the method is then told the
         * device keeps.
         */
        Tensor correct(ResidualFeedback feedback, Tensor gradient) {
            if (!feedback.residual().isOn(this)) {
                backend.upload(feedback.residual().current(memory.size()), 0, memory);
            }
            if (!Double.isNaN(feedback.momentum())) {
                backend.momentumInDouble(memory, gradient, feedback.momentum());
                feedback.residual().keptBy(this);
                return memory;
            }
            backend.copy(memory, corrected);
            backend.axpy(1f, gradient, corrected);
            return corrected;
        }

        /** {@code e ← v − D(C(v))} of the payload just encoded in {@code slot}, and the method told so. */
        void update(ResidualFeedback feedback, int slot, DevicePlan plan) {
            codec.decodeIntoMean(slot, plan.format(), 0, 1, decoded);
            backend.copy(corrected, memory);
            backend.axpy(-1f, decoded, memory);
            feedback.residual().keptBy(this);
        }
    }

    /** The device encoding of {@code backend} for {@code workers} workers, or null where it has none or it is off. */
    static DeviceEncoding of(Backend backend, int workers) {
        if ("false".equals(System.getProperty("gridrun.device_encode"))) {
            return null;
        }
        return backend.deviceCodec().map(codec -> new DeviceEncoding(backend, codec, workers)).orElse(null);
    }

    /** Whether {@link #clipNorm} clips on the device, so a clipped gradient can stay there. */
    boolean clipsNorms() {
        return codec.clipsNorms();
    }

    /**
     * Clips worker {@code worker}'s {@code gradient} on the device as {@link GradientClip#clip} would on the host, to
     * the bit.
     */
    void clipNorm(int worker, Tensor gradient, double maxNorm) {
        codec.clipNorm(worker, gradient, maxNorm);
    }

    /**
     * Forgets the last step's plans; call before the first worker's encode of a step. {@code graphed}: the step may be
     * replayed as one graph ({@link Backend#replaysSteps()}), so its encodes and decodes are not waited for to time
     * them (nothing of the step is queued before its end, and a wait would hold the host until the graph before has
     * finished).
     */
    void beginStep(boolean graphed) {
        Arrays.fill(plans, null);
        this.graphed = graphed;
    }

    /**
     * Worker {@code w}'s payload of {@code gradient}, encoded on the device and left there (its bytes are this step's
     * only after {@link #download}, and a size that depends on the values only after {@link #settleSizes}); null,
     * with nothing drawn, where the host must encode.
     */
    Payload encode(int w, Compressor compressor, Tensor gradient) {
        if (!(compressor instanceof DeviceEncodable encodable)) {
            return null;
        }
        Tensor source = gradient;
        if (encodable.refitsInNextPlan()) {
            // the refit draws sampled gradients into the worker's gradient tensor (Worker.sampleGradient); other
            // steps encode the gradient itself, so that workers' encodes share no copy (workers at once)
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
        ResidualFeedback feedback = compressor instanceof ResidualFeedback f && f.keepsResidual() ? f : null;
        if (feedback != null) {
            if (residuals[w] == null || residuals[w].memory.size() != gradient.size()) {
                residuals[w] = new Residual(gradient.size());
            }
            source = residuals[w].correct(feedback, source);
        }
        kept.beforeEncode(w, encodable.keptInSlot(), plan.format());
        codec.encode(w, source, plan.format(), plan.key(), plan.firstDraw());
        kept.afterEncode(w, encodable.keptInSlot());
        if (feedback != null && Double.isNaN(feedback.momentum())) {
            residuals[w].update(feedback, w, plan);
        }
        if (!graphed) {
            backend.synchronize();
        }
        plans[w] = plan;
        return payload(w);
    }

    /** Worker {@code w}'s payload of its plan's size: the last one while that stays. */
    private Payload payload(int w) {
        DevicePlan plan = plans[w];
        Payload last = payloads[w];
        if (last == null || last.bits() != plan.payloadBits() || last.sideBits() != plan.sideBits()
                || last.elements() != plan.format().length()) {
            payloads[w] = plan.payload();
        }
        return payloads[w];
    }

    /**
     * Gives {@code payloads} (this step's, as {@link #encode} returned them) the sizes the device's encodes wrote,
     * where a format's size depends on the values (smaq): the codec downloads them, so a step that asks runs kernel
     * by kernel. Others keep their planned sizes, and nothing is downloaded for them.
     */
    void settleSizes(Payload[] payloads) {
        for (int w = 0; w < plans.length; w++) {
            if (plans[w] != null) {
                plans[w] = plans[w].settledBy(codec, w);
                payloads[w] = payload(w);
            }
        }
    }

    /**
     * Downloads worker {@code w}'s payload of this step for its compressor's diagnostics
     * ({@link DeviceEncodable#sawDevicePayload}) where the device encoded it; nothing where the host did.
     */
    void showPayload(int w, Compressor compressor) {
        if (plans[w] != null && compressor instanceof DeviceEncodable encodable) {
            plans[w] = plans[w].settledBy(codec, w);
            Payload payload = payload(w);
            codec.download(w, plans[w].format(), payload.bytes());
            encodable.sawDevicePayload(payload);
        }
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

    /** Downloads the bytes of every payload this step encoded on the device into {@code payloads}, sized first. */
    void download(Payload[] payloads) {
        settleSizes(payloads);
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
        if (!graphed) {
            backend.synchronize();
        }
    }
}
