package org.gridrun.engine.train;

import java.util.Optional;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.LevelEncoder;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.DeviceEncodable;
import org.gridrun.engine.compress.DeviceLevelPlan;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.random.CounterRng;

/**
 * Encodes a worker's gradient where it lives when the backend has a device encoder ({@link Backend#levelEncoder()})
 * and the compressor's configuration can use it ({@link DeviceEncodable}): the gradient then never crosses to the
 * host, only the payload, which is the host encoder's byte for byte. {@code -Dgridrun.device_encode=false} keeps
 * every encode on the host (the results are the same either way).
 */
final class DeviceEncoding {
    private final LevelEncoder encoder;

    private DeviceEncoding(LevelEncoder encoder) {
        this.encoder = encoder;
    }

    /** The device encoding of {@code backend}, or null where it has none or it is turned off. */
    static DeviceEncoding of(Backend backend) {
        if ("false".equals(System.getProperty("gridrun.device_encode"))) {
            return null;
        }
        return backend.levelEncoder().map(DeviceEncoding::new).orElse(null);
    }

    /** {@code compressor}'s payload of {@code gradient}, encoded on the device; null where the host must encode. */
    Payload encode(Compressor compressor, Tensor gradient) {
        if (!(compressor instanceof DeviceEncodable encodable)) {
            return null;
        }
        Optional<DeviceLevelPlan> planned = encodable.planDeviceEncode(gradient.size());
        if (planned.isEmpty()) {
            return null;
        }
        DeviceLevelPlan plan = planned.get();
        Payload payload = plan.payload();
        encoder.encode(gradient, plan.bits(), plan.levels(), plan.largestNorm(), plan.bucketStarts(),
                CounterRng.keyOf(plan.seed(), plan.stream()), plan.firstDraw(), payload.bytes());
        return payload;
    }
}
