package org.gridrun.engine.compress;

import org.gridrun.engine.backend.DeviceCodec;
import org.gridrun.engine.backend.DeviceFormat;

/**
 * One step's encode of a compressor, as a device codec ({@link org.gridrun.engine.backend.DeviceCodec}) needs it to
 * write the payload the compressor's {@link Compressor#encode} would have written, byte for byte.
 *
 * @param format      the wire format (a level quantizer's bits, levels, norm and buckets; a cast's float format and
 *                    rounding; signSGD's scale or not)
 * @param key         the random stream's key ({@link org.gridrun.engine.random.CounterRng#keyOf})
 * @param firstDraw   the stream's position this step's draws start at, as the format's family takes
 *                    them (a level quantizer's value {@code e} takes draw {@code firstDraw + e/4}, a stochastic
 *                    cast's draw {@code firstDraw + e/2}); 0 with a format that draws nothing
 * @param payloadBits the payload's size in bits
 * @param sideBits    the bits of the payload that are not values (a level quantizer's bucket norms, signSGD's
 *                    scale)
 */
public record DevicePlan(DeviceFormat format, long key, long firstDraw, long payloadBits, long sideBits) {
    /**
     * This plan with the sizes {@code codec}'s encode into {@code slot} wrote: the plan's own, unless they depend on
     * the values (smaq, threshold, dgc, jointsq), which the device then tells (a small download).
     */
    public DevicePlan settledBy(DeviceCodec codec, int slot) {
        long bits = codec.payloadBits(slot, format, payloadBits);
        long side = codec.sideBits(slot, format, bits, sideBits);
        return bits == payloadBits && side == sideBits ? this : new DevicePlan(format, key, firstDraw, bits, side);
    }

    /** A payload of this plan's size, its bytes zero until the device's are downloaded into them. */
    public Payload payload() {
        return new Payload(new byte[Payload.byteCount(payloadBits)], payloadBits, sideBits, format.length());
    }
}
