package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.data.FashionMnist;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.train.TrainListener;
import org.gridrun.engine.train.TrainResult;
import org.gridrun.engine.train.Trainer;
import org.gridrun.engine.train.TrainerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A step replayed as a graph leaves its loss on the device while the host prepares the next step: the next step's
 * operations are matched while the graph before still runs, and nothing in them waits for it; the loss is read
 * when the next graph is about to launch. The runs record what they record kernel by kernel
 * ({@link CudaTrainerTest}), and a run that diverges on such a step stops at that step, as it does without graphs.
 */
class CudaStepOverlapTest {
    private static final TrainTestData DATA = FashionMnist.subset();

    @TempDir
    Path dir;

    private int runs;

    /** {@link CudaTrainerTest#mlp} on 3 workers for 20 steps, logged every 5, evaluated at the end. */
    private static Map<String, Object> mlp(Map<String, Object> method) {
        Map<String, Object> params = CudaTrainerTest.mlp(3, 20);
        params.put("log_interval", 5L);
        params.put("chkpt_iter", 1000L);
        params.putAll(method);
        return params;
    }

    private TrainResult train(CudaBackend backend, Map<String, Object> params, List<String> records) {
        Path spool = dir.resolve("metrics-" + (++runs) + ".csv");
        TrainResult result;
        try (backend; Trainer trainer = new Trainer(TrainerConfig.from(TrainerConfig.resolve(params)), backend, DATA);
             MetricSpool.Writer out = MetricSpool.append(spool)) {
            result = trainer.run(out, TrainListener.NONE);
        }
        MetricSpool.read(spool).stream().filter(r -> !r.name().endsWith("_ms") && !r.name().startsWith("speedup"))
                .map(r -> r.name() + "@" + r.step() + " " + r.value()).forEach(records::add);
        return result;
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void theNextStepIsPreparedWhileTheGraphRuns(GpuTarget target) {
        for (Map<String, Object> method : List.<Map<String, Object>>of(Map.of("method", "none"),
                Map.of("method", "qsgd", "bits", 3L, "bucket_size", 100L), Map.of("method", "topk", "ratio", 0.05),
                Map.of("method", "powersgd", "rank", 2L))) {
            CudaBackend backend = new CudaBackend(target.open());
            train(backend, mlp(method), new ArrayList<>());
            // steps 5, 10, 15 and 20 log, so their loss is read at once; the steps after each other step overlap
            assertTrue(backend.graphReplays() >= 15, method + ": " + backend.graphReplays() + " replays");
            assertTrue(backend.graphOverlaps() >= backend.graphReplays() - 5, method + ": " + backend.graphOverlaps()
                    + " of " + backend.graphReplays() + " replayed steps began with the graph before still queued");
            assertEquals(0, backend.graphWaitsWhileMatching(),
                    method + ": a replayed step waited for the graph before");
            // what bench train --method prints under its row
            assertEquals(backend.graphReplays() + " steps replayed as CUDA graphs, " + backend.graphOverlaps()
                    + " begun while the graph before ran, 0 waits for it while matching", backend.stepGraphs());
        }
    }

    /**
     * Between two logged steps of graphed methods, every step replays: the device allocates, frees, uploads and
     * launches nothing outside the graphs, and only the loss sums cross to the host, one 48-byte download and one wait
     * a step, at the next graph's launch; where the sizes of a payload depend on its values (smaq, dgc, jointsq), the
     * logged step downloads them after its graph has run, 8 bytes a worker (jointsq's side bits 8 more), instead of
     * running kernel by kernel with the step after it recording the graph again.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void aReplayedStepMovesOnlyItsLossSums(GpuTarget target) {
        Map<String, Integer> sizeDownloads = Map.of("smaq", 3, "dgc", 3, "jointsq", 6);
        for (Map<String, Object> method : List.<Map<String, Object>>of(Map.of("method", "none"),
                Map.of("method", "qsgd", "bits", 3L, "bucket_size", 100L, "error_feedback", true),
                Map.of("method", "topk", "ratio", 0.05), Map.of("method", "powersgd", "rank", 2L),
                Map.of("method", "signsgd"), Map.of("method", "smaq"), Map.of("method", "jointsq"),
                Map.of("method", "dgc", "ratio", 0.05))) {
            List<long[]> atLogs = countsAtLogs(target.open(), mlp(method));
            // logs at steps 5, 10, 15 and 20: the steps 11 to 15 against 16 to 20
            long[] a = difference(atLogs.get(2), atLogs.get(1));
            long[] b = difference(atLogs.get(3), atLogs.get(2));
            String what = method + ": steps 11-15 " + Arrays.toString(a) + ", 16-20 " + Arrays.toString(b)
                    + " (allocations, frees, uploads, bytes, downloads, bytes, synchronizations, launches)";
            int sizes = sizeDownloads.getOrDefault((String) method.get("method"), 0);
            assertEquals(Arrays.toString(new long[] {0, 0, 0, 0, 5 + sizes, 5 * 48 + 8 * sizes, 5, 0}),
                    Arrays.toString(b), what);
            assertEquals(Arrays.toString(a), Arrays.toString(b), what);
        }
    }

    /**
     * Once the device has refused a graph and graphs are off, steps run kernel by kernel and their encodes are timed
     * as with {@code cuda_graph: false}: waited for (a replayed step's are not, so {@code encode_ms} there is the
     * host's time to queue them).
     */
    @Test
    void onceGraphsAreOffEncodesAreTimedAsWithoutGraphs() {
        Map<String, Object> params = mlp(Map.of("method", "qsgd", "bits", 3L, "bucket_size", 100L));
        Gpu refusing = GpuTarget.EMULATOR.open();
        ((EmulatedGpu) refusing).refuseGraphLaunches = true;
        List<long[]> off = countsAtLogs(refusing, params);
        params.put("cuda_graph", false);
        List<long[]> without = countsAtLogs(GpuTarget.EMULATOR.open(), params);
        // logs at steps 5, 10, 15 and 20: steps 16 to 20
        long[] graphsOff = difference(off.get(3), off.get(2));
        long[] withoutGraphs = difference(without.get(3), without.get(2));
        // 3 encodes and the decode a step, waited for to time them
        assertTrue(withoutGraphs[6] >= 5 * 4, "without graphs: " + Arrays.toString(withoutGraphs));
        assertEquals(Arrays.toString(withoutGraphs), Arrays.toString(graphsOff),
                "(allocations, frees, uploads, bytes, downloads, bytes, synchronizations, launches)");
    }

    /**
     * What {@code device} had been asked for ({@link CountingGpu#snapshot()}) at each log of a run of {@code params}.
     */
    private List<long[]> countsAtLogs(Gpu device, Map<String, Object> params) {
        CountingGpu gpu = new CountingGpu(device);
        List<long[]> atLogs = new ArrayList<>();
        try (CudaBackend backend = new CudaBackend(gpu);
             Trainer trainer = new Trainer(TrainerConfig.from(TrainerConfig.resolve(params)), backend, DATA);
             MetricSpool.Writer out = MetricSpool.append(dir.resolve("metrics-" + (++runs) + ".csv"))) {
            trainer.run(out, new TrainListener() {
                @Override
                public void onLog(long step, long total, double loss, double samplesPerSecond) {
                    atLogs.add(gpu.snapshot());
                }
            });
        }
        return atLogs;
    }

    private static long[] difference(long[] later, long[] earlier) {
        long[] d = new long[later.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = later[i] - earlier[i];
        }
        return d;
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void aRunDivergingOnAStepWhoseLossWasReadLaterStopsThere(GpuTarget target) {
        Map<String, Object> params = mlp(Map.of("method", "qsgd", "bits", 3L, "bucket_size", 100L));
        params.put("lr", 40.0);
        List<String> graphed = new ArrayList<>();
        CudaBackend backend = new CudaBackend(target.open());
        TrainResult withGraphs = train(backend, params, graphed);
        params.put("cuda_graph", false);
        List<String> plain = new ArrayList<>();
        TrainResult withoutGraphs = train(new CudaBackend(target.open()), params, plain);
        assertTrue(withoutGraphs.diverged(), "lr 40 diverges");
        assertTrue(withoutGraphs.steps() % 5 != 0, "diverged at step " + withoutGraphs.steps()
                + ", which reads its loss at once");
        assertTrue(backend.graphOverlaps() > 0, "a step before the divergence overlapped");
        assertEquals(withoutGraphs.diverged(), withGraphs.diverged());
        assertEquals(withoutGraphs.steps(), withGraphs.steps());
        assertEquals(plain, graphed);
    }
}
