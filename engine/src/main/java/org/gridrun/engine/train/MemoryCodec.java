package org.gridrun.engine.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.model.TensorCodec;
import org.gridrun.engine.optim.Optimizer;

/**
 * SmaQ's memory mode: the tensors training keeps in memory are stored through a codec (SmaQ, FP16, BF16, FP8,
 * S2FP8 — any compressor) after each use, and the memory they would take is measured.
 *
 * <p>Weights and optimizer state pass after each optimizer step; activations after the layer that computes them,
 * activation gradients after the layer that passes them back (training passes only). Each round trip encodes into
 * the codec's real payload and decodes it back, and its bits are counted per kind of tensor: the memory reduction
 * ratio is {@code 32 · values / bits} over everything that passed since the last {@link #takeRatio}.
 */
final class MemoryCodec {
    /** What may be stored through the codec. */
    enum Target {
        WEIGHTS, ACTIVATIONS, ACTIVATION_GRADIENTS, OPTIMIZER;

        /** The configuration's name, e.g. {@code activation_gradients}. */
        String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Backend backend;
    private final Compressor codec;
    private final List<Target> targets;
    private final Map<Target, long[]> counts = new EnumMap<>(Target.class);
    private float[] host = new float[0];

    MemoryCodec(Backend backend, Compressor codec, List<Target> targets) {
        this.backend = backend;
        this.codec = codec;
        this.targets = List.copyOf(targets);
        for (Target t : Target.values()) {
            counts.put(t, new long[2]);
        }
    }

    /** Hooks the model's layers for the activation targets. */
    void attach(Model model) {
        TensorCodec activations = targets.contains(Target.ACTIVATIONS) ? t -> roundTrip(Target.ACTIVATIONS, t)
                : null;
        TensorCodec gradients = targets.contains(Target.ACTIVATION_GRADIENTS)
                ? t -> roundTrip(Target.ACTIVATION_GRADIENTS, t) : null;
        if (activations != null || gradients != null) {
            model.codecActivations(activations, gradients);
        }
    }

    /** Stores the weights and the optimizer state through the codec, after an optimizer step. */
    void afterStep(Tensor params, Optimizer optimizer) {
        if (targets.contains(Target.WEIGHTS)) {
            roundTrip(Target.WEIGHTS, params);
        }
        if (targets.contains(Target.OPTIMIZER)) {
            for (Tensor state : optimizer.stateTensors()) {
                roundTrip(Target.OPTIMIZER, state);
            }
        }
    }

    private void roundTrip(Target target, Tensor t) {
        int n = t.size();
        if (host.length < n) {
            host = new float[n];
        }
        backend.download(t, host, 0);
        Payload payload = codec.encode(host, 0, n);
        codec.decode(payload, host, 0);
        backend.upload(host, 0, t);
        long[] c = counts.get(target);
        c[0] += n;
        c[1] += payload.bits();
    }

    /**
     * The memory reduction ratio {@code 32 · values / bits} of everything stored since the last call, and starts
     * counting anew; NaN when nothing passed.
     */
    double takeRatio() {
        long values = 0;
        long bits = 0;
        for (long[] c : counts.values()) {
            values += c[0];
            bits += c[1];
            c[0] = 0;
            c[1] = 0;
        }
        return bits == 0 ? Double.NaN : 32.0 * values / bits;
    }

    /** Writes the codec's state (its random stream) and the counts since the last ratio, for checkpoints. */
    void saveState(DataOutput out) throws IOException {
        Checkpoint.writeSection(out, codec::saveState);
        for (long[] c : counts.values()) {
            out.writeLong(c[0]);
            out.writeLong(c[1]);
        }
    }

    /** Reads what {@link #saveState} wrote. */
    void restoreState(DataInput in) throws IOException {
        Checkpoint.readSection(in, "memory codec state", codec::restoreState);
        for (long[] c : counts.values()) {
            c[0] = in.readLong();
            c[1] = in.readLong();
        }
    }
}
