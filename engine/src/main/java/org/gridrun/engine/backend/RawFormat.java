package org.gridrun.engine.backend;

/**
 * The wire format of full precision ({@code none}), as a device codec needs it: every value as little-endian
 * float32, nothing else.
 *
 * @param length the number of values
 */
public record RawFormat(int length) implements DeviceFormat {
    public RawFormat {
        if (length < 0) {
            throw new IllegalArgumentException("a payload of " + length + " values");
        }
    }

    /** {@code 4·length}. */
    @Override
    public int payloadBytes() {
        return 4 * length;
    }
}
