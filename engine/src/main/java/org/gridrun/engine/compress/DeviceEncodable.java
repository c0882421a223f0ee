package org.gridrun.engine.compress;

import java.util.Optional;

/** A compressor whose encode can also run where the gradient lives (the CUDA backend's device codec). */
public interface DeviceEncodable {
    /**
     * This step's encode of {@code length} values as a plan for the device, taking the step's random draws as
     * {@link Compressor#encode} does; empty, with nothing drawn, where this configuration encodes only on the host.
     */
    Optional<DevicePlan> planDeviceEncode(int length);

    /** Whether the method refits its levels while it trains, so that a step's plan may be empty after a refit. */
    default boolean levelsAdapt() {
        return false;
    }
}
