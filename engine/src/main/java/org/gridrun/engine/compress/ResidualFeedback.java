package org.gridrun.engine.compress;

/**
 * A compressor that sends {@code C(v)} of {@code v = g + e} and keeps the residual {@code e ← v − D(C(v))}
 * ({@link ErrorFeedback}, {@code efsignsgd}), whose residual a device may keep in its stead while it encodes there:
 * the trainer's device encoding computes the same floats beside the payload, and the compressor's
 * {@link ResidualMemory} fetches them ({@link DeviceResidual#fetch}) before anything on the host reads them (a host
 * encode, a saved state).
 */
public interface ResidualFeedback {
    /** A device's copy of the residual, newer than the compressor's while it keeps it. */
    interface DeviceResidual {
        /** Copies the device's residual into {@code into}, of its length. */
        void fetch(float[] into);
    }

    /** Whether this configuration keeps a residual at all. */
    default boolean keepsResidual() {
        return true;
    }

    /** The residual, and which device keeps it. */
    ResidualMemory residual();
}
