package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.gridrun.engine.data.Dataset;
import org.gridrun.engine.data.ImageShape;
import org.gridrun.engine.data.TextCorpus;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.train.TrainListener;
import org.gridrun.engine.train.Trainer;
import org.gridrun.engine.train.TrainerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Workers whose passes run at the same time in a step's graph ({@code concurrent_workers}, each in a workspace of its
 * own) record the bits of workers run one after another: a ResNet whose batch norms move the shared running
 * statistics worker after worker, the losses of all workers in one buffer, the level quantizer's encode on the device.
 * On the emulator the graph runs the workers in the opposite order wherever nothing orders them, so a buffer two
 * workers share without an order between them changes the bits. The graph must also leave the workers' passes
 * side by side: its longest chain of waits is well short of its length.
 */
class CudaWorkerLanesTest {
    /** Small random images, so that the emulator's evaluation of the running statistics stays short. */
    private static final TrainTestData DATA = new TrainTestData(images("train", 96, 1), images("test", 48, 2),
            "random 12x12 images");
    private static final Set<String> TIMINGS = Set.of("step_ms", "encode_ms", "decode_ms", "compute_ms",
            "comm_ms_model", "speedup_model");
    private static final int WORKERS = 3;
    private static final long STEPS = 6;

    @TempDir
    Path dir;

    private int runs;

    /** The run's metrics, and its last graph's longest chain and length. */
    private record Run(List<MetricRecord> metrics, int[] graph, String describe) {
    }

    private Run train(GpuTarget target, Map<String, Object> params) {
        return train((CudaBackend) target.backend(), params, () -> { });
    }

    /** Trains on {@code backend}, {@code built} run once the trainer is. */
    private Run train(CudaBackend backend, Map<String, Object> params, Runnable built) {
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(params));
        Path spool = dir.resolve("metrics-" + (++runs) + ".csv");
        int[] graph;
        String describe;
        try (backend;
             Trainer trainer = new Trainer(config, backend, "lstm".equals(params.get("model"))
                     ? TextCorpus.generated() : DATA);
             MetricSpool.Writer out = MetricSpool.append(spool)) {
            built.run();
            trainer.run(out, TrainListener.NONE);
            graph = backend.graphShape();
            describe = trainer.describe();
            assertEquals(null, backend.graphsOffBecause());
            long steps = ((Number) params.get("niters")).longValue();
            assertTrue(backend.graphReplays() >= steps / 2, params.get("method") + ": only " + backend.graphReplays()
                    + " replays");
        }
        List<MetricRecord> metrics = MetricSpool.read(spool).stream().filter(r -> !TIMINGS.contains(r.name()))
                .toList();
        return new Run(metrics, graph, describe);
    }

    private static Dataset images(String name, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] pixels = new byte[count * 12 * 12];
        int[] labels = new int[count];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (byte) random.nextInt(256);
        }
        for (int i = 0; i < count; i++) {
            labels[i] = random.nextInt(10);
        }
        return new Dataset(name, pixels, labels, new ImageShape(12, 12, 1), 10, new float[] {0.5f},
                new float[] {0.25f});
    }

    private static Map<String, Object> resnet(Map<String, Object> method) {
        Map<String, Object> params = new HashMap<>();
        params.put("model", "resnet8");
        params.put("ngpu", (long) WORKERS);
        params.put("batch_size", 4L);
        params.put("lr", 0.05);
        params.put("momentum", 0.9);
        params.put("niters", STEPS);
        params.put("log_interval", 2L);
        params.put("chkpt_iter", STEPS);
        params.putAll(method);
        return params;
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void workersAtOnceRecordTheBitsOfWorkersOneAfterAnother(GpuTarget target) {
        for (Map<String, Object> method : List.<Map<String, Object>>of(
                Map.of("method", "qsgd", "bits", 3L, "bucket_size", 512L), Map.of("method", "none"))) {
            Run atOnce = atOnceAgreesWithOneAfterAnother(target, resnet(method), method + " on " + target);
            assertTrue(atOnce.describe().contains(WORKERS + " workers x batch 4 at once"), atOnce.describe());
            assertTrue(atOnce.graph()[1] > 100, method + ": " + atOnce.graph()[1] + " operations");
        }
    }

    /**
     * An MLP's step on 3 workers, for each method that encodes on the device in a graph step: no operation of a
     * worker's lane waits for another worker's. A buffer of the method's encode shared by all workers orders their
     * encodes one after another: signsgd's scale sum did, smaq's statistics, tile counts and records, threshold's and
     * dgc's selection and compaction, jointsq's statistics, plans and coder, and the copy of the gradient alq's encode
     * read on every step, not only where it refits.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void deviceEncodesOfWorkersDoNotWaitForEachOther(GpuTarget target) {
        for (String method : List.of("none", "qsgd", "nuq", "natural", "fp16", "onebit", "signsgd", "efsignsgd",
                "topk", "smaq", "threshold", "dgc", "jointsq", "alq")) {
            Map<String, Object> params = resnet(Map.of("method", method));
            params.put("model", "mlp");
            params.put("hidden", "32");
            // a logged step downloads the payload sizes of smaq, threshold, dgc and jointsq, which depend on the
            // values, and leaves the graph; dgc's second step, the first without the upload of its vectors, records
            // again
            params.put("niters", STEPS + 2);
            params.put("log_interval", STEPS + 2);
            Run atOnce = atOnceAgreesWithOneAfterAnother(target, params, method + " on " + target);
            assertEquals(0, atOnce.graph()[2], method + ": lane operations waiting for another lane's");
        }
    }

    /**
     * Trains {@code params} with the workers at once and, as {@code concurrent_workers: false}, one after another:
     * the same metrics, the second's step one chain of waits, the first's longest chain under 0.6 of its length.
     * Returns the first run.
     */
    private Run atOnceAgreesWithOneAfterAnother(GpuTarget target, Map<String, Object> params, String what) {
        Run atOnce = train(target, params);
        Map<String, Object> serial = new HashMap<>(params);
        serial.put("concurrent_workers", false);
        Run oneByOne = train(target, serial);
        assertTrue(atOnce.describe().contains("at once"), atOnce.describe());
        assertTrue(!oneByOne.describe().contains("at once"), oneByOne.describe());
        assertSameMetrics(oneByOne.metrics(), atOnce.metrics(), what);
        // one after another, every operation waits for the one before it
        assertEquals(oneByOne.graph()[1], oneByOne.graph()[0], what + ": the serial step's graph is one chain");
        int chain = atOnce.graph()[0];
        int length = atOnce.graph()[1];
        assertTrue(chain < 0.6 * length, what + ": the longest chain of waits is " + chain + " of " + length
                + " operations");
        return atOnce;
    }

    /**
     * A small ViT (layer norms, batched attention products, GELU) on the random images: the bits of the workers one
     * after another.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void transformerWorkersAtOnceRecordTheBitsOfWorkersOneAfterAnother(GpuTarget target) {
        Map<String, Object> params = resnet(Map.of("method", "qsgd", "bits", 3L, "bucket_size", 512L));
        params.putAll(Map.of("model", "vit", "vit_patch", 4L, "vit_width", 16L, "vit_depth", 1L, "vit_heads", 2L,
                "vit_mlp", 32L));
        atOnceAgreesWithOneAfterAnother(target, params, "vit on " + target);
    }

    /**
     * A two-layer LSTM on generated text (each worker's carried state, dropout masks and clipping in its lane),
     * PowerSGD's step after the lanes: the bits of the workers one after another.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void languageModelWorkersAtOnceRecordTheBitsOfWorkersOneAfterAnother(GpuTarget target) {
        Map<String, Object> params = new HashMap<>();
        params.put("dataset", "generated-text");
        params.put("model", "lstm");
        params.put("lstm_units", 16L);
        params.put("lstm_layers", 2L);
        params.put("lstm_dropout", 0.1);
        params.put("bptt", 5L);
        params.put("ngpu", (long) WORKERS);
        params.put("batch_size", 4L);
        params.put("optim", "sgd");
        params.put("lr", 1.0);
        params.put("clip_norm", 0.25);
        // and the average clipped after PowerSGD's step, on the device once the lanes have joined
        params.put("clip_average_norm", 0.05);
        params.put("method", "powersgd");
        params.put("rank", 1L);
        params.put("niters", STEPS);
        params.put("log_interval", 2L);
        params.put("chkpt_iter", STEPS);
        atOnceAgreesWithOneAfterAnother(target, params, "lstm on " + target);
    }

    /**
     * On a device whose memory holds what a trainer of workers one after another allocates up front and no more, the
     * workers' own workspaces do not fit: the trainer frees what it had allocated for them and runs the workers one
     * after another in one workspace, with the bits of that run (the test then lifts the limit for the steps, whose
     * buffers grow as they need).
     */
    @Test
    void workersWhoseWorkspacesDoNotFitRunOneAfterAnother() {
        Map<String, Object> serial = resnet(Map.of("method", "qsgd", "bits", 3L, "bucket_size", 512L));
        serial.put("concurrent_workers", false);
        Run oneByOne = train(GpuTarget.EMULATOR, serial);
        Map<String, Object> atOnce = resnet(Map.of("method", "qsgd", "bits", 3L, "bucket_size", 512L));
        long upFront = allocatedUpFront(serial);
        long workspace = (allocatedUpFront(atOnce) - upFront) / (WORKERS - 1);
        assertTrue(workspace > 0, "a worker's workspace takes memory");
        EmulatedGpu tight = (EmulatedGpu) GpuTarget.EMULATOR.open();
        // room for half of one more workspace, which then fails part way
        tight.capacity = upFront + workspace / 2;
        Run fallback = train(new CudaBackend(tight), atOnce, () -> {
            assertEquals(upFront, tight.allocated(), "what the workspaces that did not fit had taken was freed");
            tight.capacity = Long.MAX_VALUE;
        });
        assertTrue(!fallback.describe().contains("at once"), fallback.describe());
        assertSameMetrics(oneByOne.metrics(), fallback.metrics(), "workspaces that do not fit");
    }

    /** The device memory a trainer of {@code params} allocates before its first step. */
    private static long allocatedUpFront(Map<String, Object> params) {
        EmulatedGpu gpu = (EmulatedGpu) GpuTarget.EMULATOR.open();
        try (CudaBackend backend = new CudaBackend(gpu);
             Trainer trainer = new Trainer(TrainerConfig.from(TrainerConfig.resolve(params)), backend, DATA)) {
            return gpu.allocated();
        }
    }

    /** The same metrics at the same steps with the same bits. */
    private static void assertSameMetrics(List<MetricRecord> expected, List<MetricRecord> actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        assertTrue(expected.stream().anyMatch(r -> r.name().equals("Vacc")), "the runs were evaluated");
        for (int i = 0; i < expected.size(); i++) {
            MetricRecord e = expected.get(i);
            MetricRecord a = actual.get(i);
            assertEquals(e.name() + "@" + e.step(), a.name() + "@" + a.step(), what);
            assertEquals(e.value(), a.value(), 0, what + ": " + e.name() + "@" + e.step());
        }
    }
}
