package org.gridrun.engine.model;

import org.gridrun.engine.backend.Tensor;

/**
 * Replaces a tensor's values by what a storage codec would give back: {@code decode(encode(t))}.
 *
 * <p>SmaQ's memory mode passes weights, activations, activation gradients and optimizer state through one after
 * each use, to measure what training at that storage precision does.
 */
@FunctionalInterface
public interface TensorCodec {
    /** Overwrites {@code t} with its round trip through the codec. */
    void roundTrip(Tensor t);
}
