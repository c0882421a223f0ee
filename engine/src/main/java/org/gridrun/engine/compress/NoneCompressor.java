package org.gridrun.engine.compress;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridrun.engine.backend.RawFormat;
import org.gridrun.engine.config.Settings;

/**
 * No compression: the gradient goes on the wire as little-endian float32, 32 bits per value.
 *
 * <p>The baseline every method is compared with. Payloads sum exactly, so it aggregates by all-reduce.
 */
public final class NoneCompressor extends BaseCompressor implements DeviceEncodable {
    /** The short name. */
    public static final String NAME = "none";

    NoneCompressor(long seed, long stream) {
        super(seed, stream);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Object> config() {
        return Map.of();
    }

    @Override
    public Aggregation aggregation() {
        return Aggregation.ALL_REDUCE;
    }

    /** The payload of {@code length} values copied where the gradient lives: nothing is drawn. */
    @Override
    public Optional<DevicePlan> planDeviceEncode(int length) {
        return Optional.of(new DevicePlan(new RawFormat(length), 0, 0, 32L * length, 0));
    }

    @Override
    public Payload encode(float[] gradient, int offset, int length) {
        checkRange(gradient, offset, length);
        Payload p = payload(32L * length, 0, length);
        floats(p.bytes(), length).put(gradient, offset, length);
        return p;
    }

    @Override
    public void decode(Payload payload, float[] out, int offset) {
        int length = payload.elements();
        checkRange(out, offset, length);
        floats(payload.bytes(), length).get(out, offset, length);
    }

    /** The first {@code length} little-endian float32 values of {@code bytes}, for bulk copies in and out. */
    private static FloatBuffer floats(byte[] bytes, int length) {
        return ByteBuffer.wrap(bytes, 0, 4 * length).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    }

    @Override
    public Compressor copy(long stream) {
        return new NoneCompressor(seed, stream);
    }

    /** Registers {@code none}. */
    public static final class Provider extends MethodProvider {
        public Provider() {
            super(NAME, "full precision: float32 on the wire (32 bits per value)", Aggregation.ALL_REDUCE, List.of());
        }

        @Override
        public Compressor create(Settings params, long seed) {
            return new NoneCompressor(seed, 0);
        }
    }
}
