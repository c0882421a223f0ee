package org.gridrun.engine.compress;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Map;

/**
 * A gradient compression method: encodes a worker's gradient into a real byte payload and decodes it back.
 *
 * <p>Order of calls:
 * <ol>
 *   <li>{@link Compressors#create} makes a prototype from validated parameters and a seed.</li>
 *   <li>{@link #copy(long)} gives each worker its own instance: same configuration, fresh state, its own random
 *       stream. A worker's instance is used by that worker only (not thread-safe).</li>
 *   <li>Every step, {@link #encode} the worker's gradient. The payload stays valid until the next {@code encode} on
 *       the same instance, which may reuse its bytes.</li>
 *   <li>{@link #decode} that payload, on the instance that encoded it (the simulated collective does this on behalf
 *       of the receivers, which in a real cluster hold a replica of the sender's decoder state), after the
 *       {@code encode} and before the next one. Stateless methods may decode on any instance.</li>
 *   <li>{@link #reset()} returns an instance to its state right after {@code copy}: random counter at zero, any
 *       memory (error feedback, warm starts) cleared.</li>
 *   <li>Between steps (after the step's {@code decode}, before the next {@code encode}) a checkpoint calls
 *       {@link #saveState}; a resumed run calls {@link #restoreState} on a fresh {@code copy} with the same
 *       configuration and stream, before its first {@code encode}, and the instance then encodes exactly what the
 *       saved one would have.</li>
 * </ol>
 *
 * <p>{@link #aggregation()} declares whether payloads may be summed (all-reduce) or must be gathered; the collective
 * follows it. Implementations allocate their buffers on the first {@code encode} of a given length and reuse them:
 * no allocation per element and none per step once the length is stable.
 */
public interface Compressor {
    /** The short name the method is registered under, e.g. {@code qsgd}. */
    String name();

    /** The full configuration, every parameter with its value, for provenance (Long, Double, Boolean or String). */
    Map<String, Object> config();

    /** Whether the workers' payloads all-reduce or all-gather. */
    Aggregation aggregation();

    /**
     * Encodes {@code gradient[offset … offset + length)}.
     *
     * <p>The gradient is not modified. The payload is valid until the next call of this method on this instance.
     */
    Payload encode(float[] gradient, int offset, int length);

    /** Writes the {@code payload.elements()} decoded values into {@code out[offset…]}. */
    void decode(Payload payload, float[] out, int offset);

    /**
     * Tells the instance how the gradients it will encode are made of tensors; called once after {@link #copy},
     * before the first {@code encode}, with a layout whose size is the length every {@code encode} then gets.
     *
     * <p>Methods that work per tensor (per-layer buckets, per-layer budgets, low-rank matrices) keep it; the default
     * ignores it, and an instance never bound treats the gradient as one flat vector.
     */
    default void bind(TensorLayout layout) {
    }

    /**
     * Gives the instance a source of fresh gradients of the model; called once after {@link #bind}, before the first
     * {@code encode}, by a trainer that can compute them.
     *
     * <p>Methods that fit themselves to the gradient distribution ({@code alq}, {@code amq} and their variants) draw
     * from it when they re-fit; the default ignores it, and an instance never given one fits to the gradient it is
     * encoding.
     */
    default void bindSampler(GradientSampler sampler) {
    }

    /**
     * What the instance's current state says about its quantizer, by metric name, for the trainer to record; empty
     * by default.
     *
     * <p>The adaptive quantizers report their levels as {@code levels/0}, {@code levels/1}, … (ascending), after a
     * re-fit the variance proxy of those levels under the fitted density as {@code nb_error}, and AMQ its ratio p as
     * {@code multiplier}: the seed's names. Reading it changes nothing.
     */
    default Map<String, Double> diagnostics() {
        return Map.of();
    }

    /** A new instance with the same configuration, fresh state and random stream {@code stream}. */
    Compressor copy(long stream);

    /** Returns to the state right after creation: random counter zero, memory cleared. */
    void reset();

    /**
     * Writes everything that decides this instance's future payloads: the position of its random stream and any
     * memory (error feedback, fitted levels, warm starts).
     *
     * <p>The default writes nothing, which is right only for a method without state: a method with state must
     * override this and {@link #restoreState}, or a resumed run silently differs from an uninterrupted one.
     */
    default void saveState(DataOutput out) throws IOException {
    }

    /**
     * Reads what {@link #saveState} wrote, on an instance with the same configuration and stream.
     *
     * <p>Fails with an {@link IllegalStateException} when the state belongs to another stream or shape; the default
     * reads nothing.
     */
    default void restoreState(DataInput in) throws IOException {
    }
}
