package org.gridrun.engine.backend;

/**
 * The wire format of the sign methods, as a device codec needs it: where {@code scaled}, the scale
 * {@code s = (float) (Σ|v_i| / n)} (the sum in double, in index order) as little-endian float32 first; then one bit
 * per value, 1 for negative and 0 for zero, positive or NaN, least significant bit first. A value decodes to
 * {@code −s} or {@code +s}, or to ±1 without a scale.
 *
 * @param scaled whether the payload starts with the scale
 * @param length the number of values
 */
public record SignFormat(boolean scaled, int length) implements DeviceFormat {
    /** {@code ceil((32 + length) / 8)}, or {@code ceil(length / 8)} without a scale. */
    @Override
    public int payloadBytes() {
        return (int) (((scaled ? 32L : 0L) + length + 7) / 8);
    }
}
