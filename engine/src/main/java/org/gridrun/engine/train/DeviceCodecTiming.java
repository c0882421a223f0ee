package org.gridrun.engine.train;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.DeviceCodec;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.DeviceEncodable;
import org.gridrun.engine.compress.DevicePlan;
import org.gridrun.engine.compress.TensorLayout;

/**
 * Encode + decode time of the methods that run on a backend's device codec ({@link Backend#deviceCodec()}), each
 * with its default parameters on one Gaussian vector in device memory cut into a model's tensors (JointSQ codes a
 * width map per tensor), next to a device-to-device copy of the same
 * vector timed between the method's repetitions: {@code grid-run bench compressors --backend cuda}. Each timing is
 * the best of its repetitions after two untimed ones, the device synchronised before the clock stops.
 */
public final class DeviceCodecTiming {
    /**
     * One method's row: encode + decode throughput in GB/s of float32 input, the copy's time over the method's (a
     * ratio of 1 is as fast as copying the floats once), and the payload's bits per value.
     */
    public record Row(String method, double gbps, double ratioToCopy, double bitsPerValue) {
    }

    private DeviceCodecTiming() {
    }

    /**
     * The methods that, with their default parameters, always encode on a device codec (not those that do only until
     * they refit their levels).
     */
    public static List<String> deviceMethods() {
        List<String> names = new ArrayList<>();
        for (String name : Compressors.names()) {
            if (Compressors.onDevice(name).filter(method -> !method.levelsAdapt()).isPresent()) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * Times {@code methods} (each of {@link #deviceMethods}, bound to {@code layout}) on {@code backend} over the
     * layout's values; the copy's row comes first, named {@code copy}, its ratio 1.
     */
    public static List<Row> measure(Backend backend, List<String> methods, TensorLayout layout, int repeat) {
        int size = layout.size();
        DeviceCodec codec = backend.deviceCodec().orElseThrow(() -> new IllegalArgumentException(
                "the " + backend.name() + " backend encodes on the host; bench compressors measures it there"));
        float[] values = new float[size];
        Random rng = new Random(1);
        for (int i = 0; i < size; i++) {
            values[i] = (float) rng.nextGaussian();
        }
        List<Row> rows = new ArrayList<>();
        try (Tensor gradient = backend.allocate(1, size); Tensor out = backend.allocate(1, size)) {
            backend.upload(values, 0, gradient);
            double copy = best(backend, repeat, () -> backend.copy(gradient, out));
            rows.add(new Row("copy", gbps(size, copy), 1, 32));
            for (String method : methods) {
                Compressor compressor = Compressors.create(method, Map.of(), 1);
                compressor.bind(layout);
                DevicePlan first = plan(compressor, size);
                if (first == null) {
                    throw new IllegalArgumentException(method + " does not encode on the " + backend.name()
                            + " device with its default parameters");
                }
                // a payload whose size depends on the values (smaq) tells its bits after the encode, as in training
                codec.encode(0, gradient, first.format(), first.key(), first.firstDraw());
                long bits = codec.payloadBits(0, first.format(), first.payloadBits());
                double seconds = best(backend, repeat, () -> {
                    DevicePlan plan = plan(compressor, size);
                    codec.encode(0, gradient, plan.format(), plan.key(), plan.firstDraw());
                    codec.payloadBits(0, plan.format(), plan.payloadBits());
                    codec.decodeIntoMean(0, plan.format(), 0, 1, out);
                });
                double copyNow = best(backend, repeat, () -> backend.copy(gradient, out));
                rows.add(new Row(method, gbps(size, seconds), copyNow / seconds, (double) bits / size));
            }
        }
        return rows;
    }

    private static DevicePlan plan(Compressor compressor, int size) {
        return compressor instanceof DeviceEncodable encodable
                ? encodable.planDeviceEncode(size).orElse(null) : null;
    }

    /** The best of {@code repeat} timings of {@code body} after two untimed runs, in seconds. */
    private static double best(Backend backend, int repeat, Runnable body) {
        double best = Double.POSITIVE_INFINITY;
        for (int r = -2; r < repeat; r++) {
            backend.synchronize();
            long start = System.nanoTime();
            body.run();
            backend.synchronize();
            double seconds = (System.nanoTime() - start) / 1e9;
            if (r >= 0) {
                best = Math.min(best, seconds);
            }
        }
        return best;
    }

    private static double gbps(int size, double seconds) {
        return 4.0 * size / seconds / 1e9;
    }
}
