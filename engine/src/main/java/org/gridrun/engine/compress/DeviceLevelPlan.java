package org.gridrun.engine.compress;

import org.gridrun.engine.backend.LevelFormat;

/**
 * One step's encode of a level quantizer, as a device codec
 * ({@link org.gridrun.engine.backend.LevelCodec}) needs it to write the payload {@link LevelQuantizer#encode} would
 * have written, byte for byte.
 *
 * @param format      the wire format: bits, levels, norm and buckets
 * @param key         the random stream's key ({@link org.gridrun.engine.random.CounterRng#keyOf})
 * @param firstDraw   the stream's position this step's draws start at (value {@code e} takes draw
 *                    {@code firstDraw + e/4})
 * @param payloadBits the payload's size in bits
 * @param sideBits    the bits of the bucket norms
 */
public record DeviceLevelPlan(LevelFormat format, long key, long firstDraw, long payloadBits, long sideBits) {
    /** A payload of this plan's size, its bytes zero until the device's are downloaded into them. */
    public Payload payload() {
        return new Payload(new byte[Payload.byteCount(payloadBits)], payloadBits, sideBits, format.length());
    }
}
