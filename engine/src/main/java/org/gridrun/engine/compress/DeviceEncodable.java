package org.gridrun.engine.compress;

import java.util.List;
import java.util.Optional;

/** A compressor whose encode can also run where the gradient lives (the CUDA backend's device codec). */
public interface DeviceEncodable {
    /**
     * This step's encode of {@code length} values as a plan for the device, taking the step's random draws as
     * {@link Compressor#encode} does; empty, with nothing drawn, where this configuration encodes only on the host.
     */
    Optional<DevicePlan> planDeviceEncode(int length);

    /**
     * The vectors the method keeps between steps that the device codec keeps in the worker's slot while it encodes
     * there, in the order of the format's kept vectors ({@code DeviceCodec.keptVectors}: DGC's momentum and
     * accumulator): the trainer uploads each where the host has newer values and marks it kept by the device after
     * the encode, and the memory fetches it before any host read. None for most methods.
     */
    default List<ResidualMemory> keptInSlot() {
        return List.of();
    }

    /**
     * Shows the method the payload a device encoded for it this step, downloaded for its {@link Compressor#diagnostics}
     * (JointSQ counts its widths from the maps): its host state saw no encode. Most methods' diagnostics do not read
     * payloads.
     */
    default void sawDevicePayload(Payload payload) {
    }

    /** Whether the method refits its levels while it trains, so that a step's plan may be empty after a refit. */
    default boolean levelsAdapt() {
        return false;
    }

    /**
     * Whether the next {@link #planDeviceEncode} refits the levels from sampled gradients ({@link GradientSampler}),
     * which the trainer draws into the worker's gradient tensor: the device must then encode a copy of the gradient
     * made before the plan. On other steps the plan leaves the gradient alone.
     */
    default boolean refitsInNextPlan() {
        return false;
    }
}
