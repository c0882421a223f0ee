package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.gridrun.engine.backend.DeviceFormat;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.Compressors;
import org.gridrun.engine.compress.DeviceEncodable;
import org.gridrun.engine.compress.DevicePlan;
import org.gridrun.engine.compress.Payload;
import org.gridrun.engine.compress.ResidualMemory;
import org.gridrun.engine.compress.TensorLayout;
import org.gridrun.engine.train.SimulatedCollective;

/**
 * A device codec against the host's compressors: each worker's payload of the same gradient, byte for byte, then the
 * mean of the decoded payloads, to the bit (every NaN as the canonical one), over consecutive steps.
 */
final class CodecComparison {
    /** Worker {@code worker}'s gradient of {@code length} values at step {@code step}. */
    interface Gradients {
        float[] of(int step, int worker, int length);
    }

    /** Comparisons on one codec; returns what they compared. */
    interface Comparisons {
        int run(Gpu gpu, CudaDeviceCodec codec);
    }

    private CodecComparison() {
    }

    /**
     * The gradient lengths the compacting codecs (topk, randomk, threshold) are compared on: 1, 7, 1001, 20,011 and
     * 300,007, where each compaction thread takes two values and the scan has more tiles than threads. Under the
     * emulator's race check (the engine's racecheck test execution), where the 300,007-value cases take minutes,
     * the emulator compares the first four.
     */
    static int[] compactionLengths(GpuTarget target) {
        return target == GpuTarget.EMULATOR && EmulatedGpu.RACECHECK ? new int[] {1, 7, 1001, 20_011}
                : new int[] {1, 7, 1001, 20_011, 300_007};
    }

    /** The bytes {@link #compactionLengths} must have compared at least: {@code full}, or a tenth of it under it. */
    static int enoughCompared(GpuTarget target, int full) {
        return compactionLengths(target).length == 5 ? full : full / 10;
    }

    /** Runs {@code comparisons} on a gpu of {@code target} with a device codec of one {@code family}. */
    static int onCodec(GpuTarget target, Function<Gpu, FormatCodec<?>> family, Comparisons comparisons) {
        Gpu gpu = target.open();
        try (CudaDeviceCodec codec = new CudaDeviceCodec(List.of(family.apply(gpu)))) {
            return comparisons.run(gpu, codec);
        } finally {
            gpu.close();
        }
    }

    /** The compressors of {@code workers} workers: method {@code name} with {@code params}, worker w on stream w. */
    static Compressor[] workers(String name, Map<String, ?> params, long seed, int workers) {
        Compressor[] out = new Compressor[workers];
        for (int w = 0; w < workers; w++) {
            out[w] = Compressors.create(name, params, seed).copy(w);
        }
        return out;
    }

    /** Values after the gradient, set where no encode may read. */
    private static final int PAST_END = 64;

    /** {@link #workers(String, Map, long, int)} bound to the tensors of {@code layout}. */
    static Compressor[] workers(String name, Map<String, ?> params, long seed, int workers, TensorLayout layout) {
        Compressor[] out = workers(name, params, seed, workers);
        for (Compressor c : out) {
            c.bind(layout);
        }
        return out;
    }

    /**
     * {@code steps} steps of the workers' compressors ({@code host[w]} encoding on the host, {@code device[w]} a
     * fresh copy of it planning for {@code codec}) on {@code length} values; returns the payload bytes compared.
     */
    static int compare(Gpu gpu, CudaDeviceCodec codec, Compressor[] host, Compressor[] device, int length, int steps,
                       Gradients gradients, String what) {
        int workers = host.length;
        // values past the gradient's end that any encode reading them would show: large and negative
        long gradient = gpu.allocate(4L * (length + PAST_END));
        float[] pastEnd = new float[PAST_END];
        java.util.Arrays.fill(pastEnd, -1e30f);
        gpu.upload(pastEnd, 0, gradient + 4L * length, PAST_END);
        long mean = gpu.allocate(4L * length);
        Tensor gradientTensor = Tensor.owning(new CudaBuffer(gpu, gradient, length), 1, length);
        int compared = 0;
        DevicePlan[] plans = new DevicePlan[workers];
        try {
            for (int step = 0; step < steps; step++) {
                float[] expectedMean = new float[length];
                float[] decoded = new float[length];
                for (int w = 0; w < workers; w++) {
                    float[] g = gradients.of(step, w, length);
                    gpu.upload(g, 0, gradient, length);
                    Payload expected = host[w].encode(g, 0, length);
                    host[w].decode(expected, decoded, 0);
                    SimulatedCollective.addToMean(decoded, w, workers, expectedMean);
                    plans[w] = ((DeviceEncodable) device[w]).planDeviceEncode(length).orElseThrow();
                    if (step == 0) {
                        uploadKept(codec, w, (DeviceEncodable) device[w], plans[w].format());
                    }
                    codec.encode(w, gradientTensor, plans[w].format(), plans[w].key(), plans[w].firstDraw());
                    plans[w] = plans[w].settledBy(codec, w);
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
            for (int w = 0; w < workers && steps > 0; w++) {
                if (!((DeviceEncodable) device[w]).keptInSlot().isEmpty()) {
                    assertArrayEquals(state(host[w]), keptState(codec, w, device[w], plans[w].format()),
                            what + " worker " + w + " state");
                }
            }
        } finally {
            gpu.free(gradient);
            gpu.free(mean);
        }
        return compared;
    }

    /**
     * Uploads the vectors {@code compressor} keeps between steps into {@code slot} (DGC's momentum and accumulator,
     * zeros for a fresh one), as the trainer's first device step does: the slot may hold another run's.
     */
    private static void uploadKept(CudaDeviceCodec codec, int slot, DeviceEncodable compressor, DeviceFormat format) {
        List<ResidualMemory> kept = compressor.keptInSlot();
        for (int i = 0; i < kept.size(); i++) {
            codec.uploadKept(slot, format, i, kept.get(i).current(format.length()));
        }
    }

    /**
     * The saved state of {@code compressor} with the vectors it keeps fetched from {@code slot} of {@code codec}, as
     * the trainer's memories fetch them for a checkpoint.
     */
    private static byte[] keptState(CudaDeviceCodec codec, int slot, Compressor compressor, DeviceFormat format) {
        List<ResidualMemory> kept = ((DeviceEncodable) compressor).keptInSlot();
        for (int i = 0; i < kept.size(); i++) {
            int vector = i;
            kept.get(i).keptBy(into -> codec.fetchKept(slot, format, vector, into));
        }
        return state(compressor);
    }

    /** {@code compressor}'s saved state. */
    static byte[] state(Compressor compressor) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            compressor.saveState(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Sets forty values of {@code g} from a third of it on to ±0 alternately, and forty from its middle on to
     * subnormals of both signs (and zero), as far as {@code g} reaches.
     */
    static void zerosAndSubnormals(float[] g) {
        int n = g.length;
        for (int i = n / 3; i < Math.min(n, n / 3 + 40); i++) {
            g[i] = i % 2 == 0 ? -0f : 0f;
        }
        for (int i = n / 2; i < Math.min(n, n / 2 + 40); i++) {
            g[i] = Float.MIN_VALUE * (i % 5 - 2);
        }
    }

    /** The bits of {@code values}, every NaN as the canonical one. */
    static int[] bits(float[] values) {
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            float v = values[i];
            out[i] = Float.isNaN(v) ? 0x7FC00000 : Float.floatToRawIntBits(v);
        }
        return out;
    }
}
