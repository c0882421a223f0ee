package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.data.FashionMnist;
import org.gridrun.engine.data.TrainTestData;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.train.Checkpoint;
import org.gridrun.engine.train.StopSignal;
import org.gridrun.engine.train.TrainListener;
import org.gridrun.engine.train.Trainer;
import org.gridrun.engine.train.TrainerConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The trainer on the CUDA backend (batch uploads, gradient downloads to the host compressors, the averaged
 * gradient's upload, the optimizer step, evaluation) records the CPU backend's losses and accuracies, and the same
 * bits when run twice; a level quantizer, a sparsifier, a cast or signSGD encoded on the device records what the
 * host encoder's run records, and a step replayed as one CUDA graph what the step run kernel by kernel records.
 */
class CudaTrainerTest {
    private static final TrainTestData DATA = FashionMnist.subset();
    /** Metrics that measure time, which no two runs share. */
    private static final Set<String> TIMINGS = Set.of("step_ms", "encode_ms", "decode_ms", "compute_ms",
            "comm_ms_model", "speedup_model");

    @TempDir
    Path dir;

    private int runs;

    private List<MetricRecord> train(Backend backend, Map<String, Object> params) {
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(params));
        Path spool = dir.resolve("metrics-" + (++runs) + ".csv");
        try (backend;
             Trainer trainer = new Trainer(config, backend, DATA);
             MetricSpool.Writer out = MetricSpool.append(spool)) {
            trainer.run(out, TrainListener.NONE);
        }
        return MetricSpool.read(spool).stream().filter(r -> !TIMINGS.contains(r.name())).toList();
    }

    /** A small MLP on {@code workers} workers for {@code steps} steps. */
    static Map<String, Object> mlp(long workers, long steps) {
        Map<String, Object> params = new HashMap<>();
        params.put("hidden", "32");
        params.put("ngpu", workers);
        params.put("batch_size", 16L);
        params.put("lr", 0.05);
        params.put("niters", steps);
        return params;
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void anMlpTrainsAsOnTheCpu(GpuTarget target) {
        Map<String, Object> params = mlp(2, 20);
        params.put("momentum", 0.9);
        params.put("log_interval", 5L);
        params.put("chkpt_iter", 10L);
        params.put("method", "none");
        List<MetricRecord> cpu = train(new CpuBackend(), params);
        List<MetricRecord> cuda = train(target.backend(), params);
        List<MetricRecord> again = train(target.backend(), params);
        assertTrue(cpu.stream().anyMatch(r -> r.name().equals("Vacc")), "the runs were evaluated");
        assertClose(cpu, cuda, "cuda on " + target + " against the cpu");
        assertSameMetrics(cuda, again, "run twice on " + target);
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void levelQuantizersEncodedOnTheDeviceTrainAsEncodedOnTheHost(GpuTarget target) {
        // qsgd rounds arithmetically, nuq searches its exponential levels, alq refits its levels at steps 4 and 8
        deviceRunsRecordWhatHostRunsRecord(target, List.of(Map.of("method", "qsgd", "bits", 3L, "bucket_size", 100L),
                Map.of("method", "nuq", "bits", 3L, "bucket_size", 100L),
                Map.of("method", "alq", "bits", 3L, "osnap_iter", "4,8", "bucket_size", 100L),
                // clipped on the device (as a language model's gradients are), then encoded there
                Map.of("method", "qsgd", "bits", 3L, "bucket_size", 100L, "clip_norm", 0.05),
                // the average clipped on the device after the decodes
                Map.of("method", "qsgd", "bits", 3L, "bucket_size", 100L, "clip_average_norm", 0.05)));
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void sparsifiersAndFullPrecisionEncodedOnTheDeviceTrainAsEncodedOnTheHost(GpuTarget target) {
        // topk selects on the device and gathers, randomk draws its shared positions on the host and all-reduces
        // none copies the gradient into its payload and adds it to the mean
        deviceRunsRecordWhatHostRunsRecord(target, List.of(Map.of("method", "topk", "ratio", 0.05),
                Map.of("method", "randomk", "ratio", 0.05), Map.of("method", "none")));
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void thresholdSparsifiersEncodedOnTheDeviceTrainAsEncodedOnTheHost(GpuTarget target) {
        // counted lists whose size the device tells after the encode; dgc's momentum and accumulator stay in the
        // workers' slots, fetched for the checkpoint at step 12, and its sample is drawn on the host
        deviceRunsRecordWhatHostRunsRecord(target, List.of(Map.of("method", "threshold", "threshold", 0.002),
                Map.of("method", "threshold", "threshold", 0.0), Map.of("method", "dgc", "ratio", 0.05,
                        "sample_ratio", 0.1), Map.of("method", "dgc", "ratio", 0.01, "error_feedback", true),
                Map.of("method", "dgc", "ratio", 0.05, "gvar_log_iter", 5L, "gvar_estim_iter", 2L)));
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void castsAndSignsEncodedOnTheDeviceTrainAsEncodedOnTheHost(GpuTarget target) {
        // fp16 rounds stochastically (all-reduce), fp8 to nearest, signsgd sends a scale and one bit a value,
        // efsignsgd the same of the gradient plus its residual, which stays on the device, signum of its momentum
        deviceRunsRecordWhatHostRunsRecord(target, List.of(Map.of("method", "fp16"),
                Map.of("method", "fp8", "rounding", "nearest"), Map.of("method", "signsgd"),
                Map.of("method", "efsignsgd", "gvar_log_iter", 5L, "gvar_estim_iter", 2L),
                Map.of("method", "signum", "signum_momentum", 0.7, "gvar_log_iter", 5L, "gvar_estim_iter", 2L)));
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void smaqEncodedOnTheDeviceTrainsAsEncodedOnTheHost(GpuTarget target) {
        // payloads whose size the device tells after the encode, with escapes or the paper's clamp; with error
        // feedback the residual takes the device's decode of the worker's own payload
        deviceRunsRecordWhatHostRunsRecord(target, List.of(Map.of("method", "smaq"),
                Map.of("method", "smaq", "outliers", "clamp"),
                Map.of("method", "smaq", "error_feedback", true, "gvar_log_iter", 5L, "gvar_estim_iter", 2L)));
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void naturalAndS2fp8EncodedOnTheDeviceTrainAsEncodedOnTheHost(GpuTarget target) {
        deviceRunsRecordWhatHostRunsRecord(target, List.of(Map.of("method", "natural"),
                Map.of("method", "natural", "error_feedback", true), Map.of("method", "s2fp8"),
                Map.of("method", "s2fp8", "rounding", "nearest"), Map.of("method", "mcgq", "ratio", 0.05),
                Map.of("method", "mcgq", "sampling", "independent", "error_feedback", true)));
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void oneBitSgdOnTheDeviceTrainsAndResumesAsOnTheHost(GpuTarget target) {
        // its residual kept in the worker's slot, fetched for the checkpoint and uploaded again on resuming
        deviceRunsRecordWhatHostRunsRecord(target, List.of(Map.of("method", "onebit", "bucket_size", 100L)));
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "onebit", "bucket_size", 100L));
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void jointsqEncodedOnTheDeviceTrainsAsEncodedOnTheHost(GpuTarget target) {
        // its residual kept in the worker's slot, sizes and side bits told by the device on logged steps, and the
        // width shares of worker 0's device payload recorded with the variance as the host's encode records them
        deviceRunsRecordWhatHostRunsRecord(target, List.of(Map.of("method", "jointsq"),
                Map.of("method", "jointsq", "rate", 0.2, "gvar_log_iter", 5L, "gvar_estim_iter", 2L),
                Map.of("method", "jointsq", "allocation", "knapsack", "sample_ratio", 0.05)));
    }

    /**
     * JointSQ on the device stopped at step 4 (its checkpoint fetches the residual from the workers' slots) and
     * resumed by a new trainer records the steps after 4 as the run that never stopped.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void jointsqOnTheDeviceResumesFromItsCheckpoint(GpuTarget target) {
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "jointsq", "rate", 0.1));
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "jointsq", "allocation", "knapsack"));
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void errorFeedbackOnTheDeviceTrainsAsOnTheHost(GpuTarget target) {
        // the residual stays on the device; the variance measurements (every 5 steps) and the checkpoint at step 6
        // read it on the host (fetched); alq refits its levels from sampled gradients, not the corrected ones
        Map<String, Object> feedback = Map.of("error_feedback", true, "gvar_log_iter", 5L, "gvar_estim_iter", 2L,
                "chkpt_iter", 6L);
        List<Map<String, Object>> methods = new ArrayList<>();
        for (Map<String, Object> method : List.<Map<String, Object>>of(Map.of("method", "qsgd", "bits", 2L,
                "bucket_size", 100L), Map.of("method", "alq", "bits", 3L, "osnap_iter", "4,8", "bucket_size", 100L),
                Map.of("method", "fp8"), Map.of("method", "signsgd"))) {
            Map<String, Object> withFeedback = new HashMap<>(method);
            withFeedback.putAll(feedback);
            methods.add(withFeedback);
        }
        deviceRunsRecordWhatHostRunsRecord(target, methods);
    }

    /**
     * PowerSGD's whole step on the device (Gram-Schmidt at ranks 1 and 2, Householder at 3; plain averages before
     * {@code start_after}; two power iterations a step; no residual kept) records the host step's metrics, with every
     * step after the first compressed one replayed as a graph, which a download would have prevented; the checkpoint
     * at step 6 fetches the factors and the residuals, the next step uploads them again. The alternating variant
     * (one half iteration a step, then three) sends P and Q in turn.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void powerSgdOnTheDeviceTrainsAsOnTheHost(GpuTarget target) {
        for (Map<String, Object> method : List.<Map<String, Object>>of(Map.of("rank", 1L),
                Map.of("rank", 2L, "start_after", 2L), Map.of("rank", 3L, "iters_per_step", 2L),
                Map.of("rank", 2L, "keep_residual", false), Map.of("rank", 1L, "variant", "alternating"),
                Map.of("rank", 2L, "variant", "alternating", "iters_per_step", 3L, "start_after", 1L),
                Map.of("rank", 2L, "clip_average_norm", 0.05))) {
            Map<String, Object> params = mlp(3, 12);
            params.put("log_interval", 4L);
            params.put("chkpt_iter", 6L);
            params.put("method", "powersgd");
            params.putAll(method);
            CudaBackend device = (CudaBackend) target.backend();
            List<MetricRecord> onDevice = train(device, params);
            System.setProperty("gridrun.device_encode", "false");
            CudaBackend host = (CudaBackend) target.backend();
            List<MetricRecord> onHost;
            try {
                onHost = train(host, params);
            } finally {
                System.clearProperty("gridrun.device_encode");
            }
            assertTrue(onHost.stream().anyMatch(r -> r.name().equals("bits") && r.value() > 0), "factors were sent");
            assertEquals(0, host.graphReplays(), "the host step downloads the gradients");
            assertTrue(device.graphReplays() >= 12 - 5, method + ": only " + device.graphReplays()
                    + " of 12 steps were replayed as a graph");
            assertSameMetrics(onHost, onDevice, method + ", device against host step on " + target);
        }
    }

    /** PowerSGD on the device stopped at step 4 and resumed records what the run that never stopped records. */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void powerSgdOnTheDeviceResumesFromItsCheckpoint(GpuTarget target) {
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "powersgd", "rank", 2L));
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "powersgd", "rank", 1L, "start_after", 5L));
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "powersgd", "rank", 2L, "variant", "alternating"));
    }

    /**
     * A device run with error feedback stopped at step 4 (its checkpoint fetches the residual from the device) and
     * resumed by a new trainer (whose first step uploads the restored residual) records the steps after 4 as the run
     * that never stopped.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void errorFeedbackOnTheDeviceResumesFromItsCheckpoint(GpuTarget target) {
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "qsgd", "bits", 2L, "bucket_size", 100L,
                "error_feedback", true));
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "efsignsgd"));
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "signum"));
    }

    /**
     * DGC on the device stopped at step 4 (its checkpoint fetches the momentum and the accumulator from the workers'
     * slots) and resumed by a new trainer (whose first step uploads the restored ones) records the steps after 4 as
     * the run that never stopped.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void dgcOnTheDeviceResumesFromItsCheckpoint(GpuTarget target) {
        resumesAsTheRunThatNeverStopped(target, Map.of("method", "dgc", "ratio", 0.05, "sample_ratio", 0.1));
    }

    private void resumesAsTheRunThatNeverStopped(GpuTarget target, Map<String, Object> method) {
        Map<String, Object> params = mlp(3, 10);
        params.put("log_interval", 2L);
        params.put("chkpt_iter", 100L);
        params.putAll(method);
        List<MetricRecord> whole = train(target.backend(), params);
        List<MetricRecord> after = afterStep(4, stoppedAndResumed(params, target.backend(), target.backend()));
        List<MetricRecord> expected = afterStep(4, whole);
        assertEquals(expected.size(), after.size());
        assertTrue(expected.size() > 3, "steps after the stop were recorded");
        for (int i = 0; i < expected.size(); i++) {
            MetricRecord e = expected.get(i);
            MetricRecord a = after.get(i);
            assertEquals(e.name() + "@" + e.step() + " " + e.value(), a.name() + "@" + a.step() + " " + a.value(),
                    method + " resumed on " + target);
        }
    }

    /**
     * A run stopped on one backend resumes on the other (a SLURM job requeued onto a node of another kind, on
     * {@code backend: auto}): the state its method keeps on the device (residuals, momentum, factors) crosses in
     * the checkpoint, and the rest of the run records what the run that never stopped records on the host, as
     * closely as the two backends' runs agree ({@link #anMlpTrainsAsOnTheCpu}).
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void aRunStoppedOnOneBackendResumesOnTheOther(GpuTarget target) {
        List<Map<String, Object>> methods = List.of(
                Map.of("method", "qsgd", "bits", 4L, "bucket_size", 64L, "error_feedback", true),
                Map.of("method", "dgc", "ratio", 0.05, "sample_ratio", 0.1),
                Map.of("method", "onebit"),
                Map.of("method", "powersgd", "rank", 2L));
        for (Map<String, Object> method : methods) {
            Map<String, Object> params = mlp(3, 10);
            params.put("log_interval", 2L);
            params.put("chkpt_iter", 100L);
            params.putAll(method);
            List<MetricRecord> whole = afterStep(4, train(new CpuBackend(), params));
            assertTrue(whole.stream().anyMatch(r -> r.name().equals("loss") && r.value() < 3),
                    method + " trains: " + whole);
            assertClose(whole, afterStep(4, stoppedAndResumed(params, target.backend(), new CpuBackend())),
                    method + ": stopped on " + target + ", resumed on the CPU");
            assertClose(whole, afterStep(4, stoppedAndResumed(params, new CpuBackend(), target.backend())),
                    method + ": stopped on the CPU, resumed on " + target);
        }
    }

    /** The same metrics at the same steps, values within 1e-4 (relative above 1) as the two backends agree. */
    private static void assertClose(List<MetricRecord> expected, List<MetricRecord> actual, String what) {
        assertMetrics(expected, actual, 1e-4, what);
    }

    /**
     * The metrics of a run of {@code params} stopped at step 4 on {@code first} and resumed from its checkpoint on
     * {@code second}, timings left out.
     */
    private List<MetricRecord> stoppedAndResumed(Map<String, Object> params, Backend first, Backend second) {
        TrainerConfig config = TrainerConfig.from(TrainerConfig.resolve(params));
        Checkpoint checkpoint = new Checkpoint(dir.resolve("checkpoint-" + (++runs) + ".bin"), "cross");
        Path spool = dir.resolve("crossed-" + runs + ".csv");
        StopSignal stop = new StopSignal();
        TrainListener stopAtFour = new TrainListener() {
            @Override
            public void onLog(long step, long total, double loss, double samplesPerSecond) {
                if (step == 4) {
                    stop.request("test stop at 4");
                }
            }
        };
        try (Backend backend = first; Trainer trainer = new Trainer(config, backend, DATA);
             MetricSpool.Writer out = MetricSpool.append(spool)) {
            trainer.run(out, stopAtFour, checkpoint, stop);
        }
        assertTrue(stop.isRequested(), "the run stopped at 4");
        try (Backend backend = second; Trainer trainer = new Trainer(config, backend, DATA);
             MetricSpool.Writer out = MetricSpool.append(spool)) {
            assertEquals(4, trainer.resume(checkpoint));
            trainer.run(out, TrainListener.NONE, checkpoint, new StopSignal());
        }
        return MetricSpool.read(spool).stream().filter(r -> !TIMINGS.contains(r.name())).toList();
    }

    private static List<MetricRecord> afterStep(long step, List<MetricRecord> records) {
        return records.stream().filter(r -> r.step() > step && !TIMINGS.contains(r.name())).toList();
    }

    /** Each of {@code methods} trains an MLP on 3 workers with its encodes on the device as with them on the host. */
    private void deviceRunsRecordWhatHostRunsRecord(GpuTarget target, List<Map<String, Object>> methods) {
        for (Map<String, Object> method : methods) {
            Map<String, Object> params = mlp(3, 12);
            params.put("log_interval", 4L);
            params.put("chkpt_iter", 12L);
            params.putAll(method);
            List<MetricRecord> device = train(target.backend(), params);
            List<MetricRecord> host;
            System.setProperty("gridrun.device_encode", "false");
            try {
                host = train(target.backend(), params);
            } finally {
                System.clearProperty("gridrun.device_encode");
            }
            assertTrue(host.stream().anyMatch(r -> r.name().equals("bits") && r.value() > 0), "payloads were sent");
            assertSameMetrics(host, device, method + ", device against host encode on " + target);
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void aStepReplayedAsOneGraphRecordsWhatKernelByKernelRecords(GpuTarget target) {
        // qsgd: every step is the same work, its random stream's position a new kernel argument each step, and the
        // learning rate drops at step 6; alq: its refits at steps 4 and 8 change the step, which then runs kernel by
        // kernel and is recorded again; none, the baseline, as one graph too; smaq's payload size depends on the
        // values, which only the logged steps download
        for (Map<String, Object> method : List.<Map<String, Object>>of(
                Map.of("method", "qsgd", "bits", 3L, "lr_decay_iters", "5"),
                Map.of("method", "alq", "bits", 3L, "osnap_iter", "4,8"), Map.of("method", "none"),
                Map.of("method", "smaq"), Map.of("method", "jointsq"),
                Map.of("method", "qsgd", "bits", 3L, "clip_norm", 0.05),
                Map.of("method", "qsgd", "bits", 3L, "clip_average_norm", 0.05))) {
            Map<String, Object> params = mlp(2, 14);
            params.put("momentum", 0.9);
            params.put("log_interval", 3L);
            params.put("chkpt_iter", 7L);
            params.put("bucket_size", 100L);
            params.putAll(method);
            CudaBackend graphed = (CudaBackend) target.backend();
            List<MetricRecord> withGraph = train(graphed, params);
            params.put("cuda_graph", false);
            CudaBackend plain = (CudaBackend) target.backend();
            List<MetricRecord> without = train(plain, params);
            assertEquals(0, plain.graphReplays(), "cuda_graph: false replays nothing");
            assertEquals(null, graphed.graphsOffBecause(), method.toString());
            // alq's refit steps and smaq's and jointsq's logged steps (sizes downloaded) run kernel by kernel, and the
            // next steps record again
            long recorded = method.containsKey("osnap_iter") ? 5
                    : List.of("smaq", "jointsq").contains(method.get("method")) ? 8 : 1;
            assertTrue(graphed.graphReplays() >= 14 - recorded - 2, method + ": only " + graphed.graphReplays()
                    + " of 14 steps were replayed as a graph");
            assertSameMetrics(without, withGraph, method + ", graph against kernel by kernel on " + target);
        }
    }

    /** The same metrics at the same steps with the same bits. */
    private static void assertSameMetrics(List<MetricRecord> expected, List<MetricRecord> actual, String what) {
        assertMetrics(expected, actual, 0, what);
    }

    /** The same metrics at the same steps, each value within {@code relative} of the expected (absolute below 1). */
    private static void assertMetrics(List<MetricRecord> expected, List<MetricRecord> actual, double relative,
                                      String what) {
        assertEquals(expected.size(), actual.size(), what);
        for (int i = 0; i < expected.size(); i++) {
            MetricRecord e = expected.get(i);
            MetricRecord a = actual.get(i);
            assertEquals(e.name() + "@" + e.step(), a.name() + "@" + a.step(), what);
            assertEquals(e.value(), a.value(), relative * Math.max(1, Math.abs(e.value())),
                    what + ": " + e.name() + "@" + e.step());
        }
    }
}
