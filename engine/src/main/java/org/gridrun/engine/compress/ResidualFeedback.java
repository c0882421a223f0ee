package org.gridrun.engine.compress;

/**
 * A compressor that keeps a memory between steps that a device may keep in its stead while it encodes there: a
 * residual ({@link ErrorFeedback}, {@code efsignsgd}: it sends {@code C(v)} of {@code v = g + e} and keeps
 * {@code e ← v − D(C(v))}) or a momentum ({@code signum}: {@code m ← (float) (β·m + (1 − β)·g)} in double, and
 * {@code v = m}, see {@link #momentum()}):
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

    /** Whether this configuration keeps a memory at all. */
    default boolean keepsResidual() {
        return true;
    }

    /** β where the memory is a momentum whose value is sent; NaN where it is a residual. */
    default double momentum() {
        return Double.NaN;
    }

    /** The residual, and which device keeps it. */
    ResidualMemory residual();
}
