package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Function;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.DeviceEncodable;
import org.gridrun.engine.compress.DevicePlan;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.train.SimulatedCollective;

/**
 * Two steps of a device codec against the host compressors of the same method: each worker's payload byte for byte
 * (and its bit counts), and the mean of the workers' decoded payloads to the bit (every NaN alike), as the
 * codec tests of each format family check them.
 */
final class CodecAgreement {
    /** Worker {@code worker}'s gradient of {@code length} values at step {@code step}. */
    interface Gradients {
        float[] of(int step, int worker, int length);
    }

    /** The comparisons of one codec test, returning the payload bytes compared. */
    interface Cases {
        int compare(Gpu gpu, CudaDeviceCodec codec);
    }

    private CodecAgreement() {
    }

    /** Runs {@code cases} on a device codec of the one format family {@code family} makes, on {@code target}. */
    static int onFamily(GpuTarget target, Function<Gpu, FormatCodec<?>> family, Cases cases) {
        Gpu gpu = target.open();
        try (CudaDeviceCodec codec = new CudaDeviceCodec(List.of(family.apply(gpu)))) {
            return cases.compare(gpu, codec);
        } finally {
            gpu.close();
        }
    }

    /**
     * Two steps of {@code host.length} workers: {@code host[w]} encodes and decodes on the CPU, {@code device[w]}
     * (an instance alike) plans for {@code codec}; returns the payload bytes compared.
     */
    static int twoSteps(Gpu gpu, CudaDeviceCodec codec, Compressor[] host, Compressor[] device, int length,
                        Gradients gradients, String what) {
        int workers = host.length;
        long gradient = gpu.allocate(4L * length);
        long mean = gpu.allocate(4L * length);
        Tensor gradientTensor = Tensor.owning(new CudaBuffer(gpu, gradient, length), 1, length);
        int compared = 0;
        try {
            for (int step = 0; step < 2; step++) {
                float[] expectedMean = new float[length];
                float[] decoded = new float[length];
                DevicePlan[] plans = new DevicePlan[workers];
                for (int w = 0; w < workers; w++) {
                    float[] g = gradients.of(step, w, length);
                    gpu.upload(g, 0, gradient, length);
                    Payload expected = host[w].encode(g, 0, length);
                    host[w].decode(expected, decoded, 0);
                    SimulatedCollective.addToMean(decoded, w, workers, expectedMean);
                    plans[w] = ((DeviceEncodable) device[w]).planDeviceEncode(length).orElseThrow();
                    codec.encode(w, gradientTensor, plans[w].format(), plans[w].key(), plans[w].firstDraw());
                    Payload actual = plans[w].payload();
                    codec.download(w, plans[w].format(), actual.bytes());
                    assertEquals(expected.bits(), actual.bits(), what);
                    assertEquals(expected.sideBits(), actual.sideBits(), what);
                    assertArrayEquals(expected.bytes(), actual.bytes(), what + " step " + step + " worker " + w);
                    compared += actual.bytes().length;
                }
                gpu.fill32(mean, 0x7FC00000, length);
                Tensor meanTensor = Tensor.owning(new CudaBuffer(gpu, mean, length), 1, length);
                for (int w = 0; w < workers; w++) {
                    codec.decodeIntoMean(w, plans[w].format(), w, workers, meanTensor);
                }
                float[] actualMean = new float[length];
                gpu.download(mean, actualMean, 0, length);
                assertArrayEquals(bits(expectedMean), bits(actualMean), what + " step " + step + " mean");
            }
        } finally {
            gpu.free(gradient);
            gpu.free(mean);
        }
        return compared;
    }

    /** The floats' bits, every NaN as the canonical one. */
    private static int[] bits(float[] values) {
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            float v = values[i];
            out[i] = Float.isNaN(v) ? 0x7FC00000 : Float.floatToRawIntBits(v);
        }
        return out;
    }
}
