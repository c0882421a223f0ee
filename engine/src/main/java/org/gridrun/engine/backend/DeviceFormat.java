package org.gridrun.engine.backend;

/**
 * A compressor's wire format as a device codec ({@link DeviceCodec}) needs it to write, byte for byte, the payload the
 * host encoder writes. Each family of methods has its own record ({@link LevelFormat} for the level quantizers,
 * {@link CastFormat} for the casts, {@link SignFormat} for signSGD); a format's arrays are never changed once it is
 * made, so a codec may keep what it uploaded of them for as long as it is handed the same format object.
 */
public interface DeviceFormat {
    /** The number of gradient values a payload holds. */
    int length();

    /** The payload's size on the wire, in bytes. */
    int payloadBytes();

    /**
     * The bits that are not values of a payload the device told is {@code payloadBits} long
     * ({@link DeviceCodec#payloadBits}); {@code planned}, the plan's, where they do not depend on the values.
     */
    default long sideBits(long payloadBits, long planned) {
        return planned;
    }
}
