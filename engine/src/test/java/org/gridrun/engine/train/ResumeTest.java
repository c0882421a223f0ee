package org.gridrun.engine.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.gridrun.engine.data.CifarFiles;
import org.gridrun.engine.data.IdxFiles;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run stopped and resumed from its checkpoints must be the run that never stopped: same metrics (timings aside),
 * same parameters, same optimizer, sampler and compressor state. On a synthetic data set, 12 steps of a tiny MLP.
 */
class ResumeTest {
    /** Metrics that measure time, which no two runs share. */
    private static final Set<String> TIMINGS = Set.of("step_ms", "encode_ms", "decode_ms", "compute_ms",
            "speedup_model");

    @TempDir
    Path tmp;

    private Path data;

    @BeforeEach
    void writeData() throws IOException {
        data = Files.createDirectories(tmp.resolve("data"));
        IdxFiles.writeSyntheticFashionMnist(data, 300, 100, 11);
    }

    private Map<String, Object> params(String method) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("data_dir", data.toString());
        params.put("hidden", "16");
        params.put("ngpu", 3L);
        params.put("batch_size", 16L);
        params.put("lr", 0.05);
        params.put("momentum", 0.9);
        params.put("niters", 12L);
        params.put("log_interval", 4L);
        params.put("chkpt_iter", 6L);
        params.put("method", method);
        if (method.equals("adam")) {
            // Adam's moments and step count, a decay at 5 and 9 and a warm-up over 3: a stop at 4 or 6 resumes
            // inside all of them.
            params.put("method", "none");
            params.put("optim", "adam");
            params.put("momentum", 0.9);
            params.put("lr", 0.01);
            params.put("lr_decay_iters", "5,9");
            params.put("warmup_iters", 3L);
            params.put("weight_decay", 0.01);
            params.put("no_decay_bn_bias", true);
        }
        if (method.equals("qsgd")) {
            params.put("bits", 2L);
            params.put("bucket_size", 64L);
        }
        if (method.equals("alq_nb")) {
            // Refits at steps 2, 5 and 10, each from two sampled gradients: one before and one after each stop.
            params.put("bits", 3L);
            params.put("bucket_size", 64L);
            params.put("osnap_iter", "2,5");
            params.put("number_of_samples", 2L);
            // The measurements too must come back the same: variance and diagnostics at steps 3, 6, 9 and 12.
            params.put("gvar_log_iter", 3L);
            params.put("gvar_estim_iter", 2L);
            params.put("train_accuracy", true);
        }
        return params;
    }

    private RunDir stage(String name, String id, Map<String, Object> params) {
        RunDir dir = RunDir.at(tmp.resolve("runs").resolve(name));
        dir.writeExperiment(new ExperimentRecord("g", "r", name, id, params, TrainerConfig.resolve(params)));
        return dir;
    }

    /** Runs the job of {@code dir}, asking it to stop from its callback at {@code stopAt} (0: before it starts). */
    private static TrainResult runStoppingAt(RunDir dir, long stopAt) {
        StopSignal stop = new StopSignal();
        if (stopAt == 0) {
            stop.request("before the start");
        }
        return TrainJob.run(dir, new TrainListener() {
            @Override
            public void onLog(long step, long total, double loss, double samplesPerSecond) {
                stopAfter(step);
            }

            @Override
            public void onEval(long step, Headline headline, double loss, double accuracy) {
                stopAfter(step);
            }

            private void stopAfter(long step) {
                if (step == stopAt) {
                    stop.request("test stop at " + step);
                }
            }
        }, stop);
    }

    /** Every record but the timings, without wall-clock times. */
    private static List<String> values(RunDir dir) {
        return MetricSpool.read(dir.metricsFile()).stream().filter(r -> !TIMINGS.contains(r.name()))
                .map(r -> r.name() + "," + r.step() + "," + r.value()).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "qsgd", "powersgd", "alq_nb", "adam"})
    void aStoppedAndResumedRunIsTheRunThatNeverStopped(String method) throws IOException {
        assertResumesIdentically(method, params(method));
    }

    /**
     * The convolutional models carry more state than the MLP: lenet5 draws dropout masks, resnet8 has batch-norm
     * running statistics and trains on augmented CIFAR batches; all of it must resume exactly.
     */
    @ParameterizedTest
    @ValueSource(strings = {"lenet5", "resnet8", "resnet8+smaq"})
    void convolutionalModelsResumeExactly(String name) throws IOException {
        Map<String, Object> params = params("qsgd");
        String model = name.replace("+smaq", "");
        params.put("model", model);
        if (name.endsWith("+smaq")) {
            params.put("memory_codec", "smaq");
        }
        params.put("batch_size", 4L);
        params.put("ngpu", 2L);
        if (model.equals("resnet8")) {
            Path cifar = Files.createDirectories(tmp.resolve("cifar"));
            CifarFiles.writeCifar10(cifar, 8);
            params.put("dataset", "cifar10");
            params.put("data_dir", cifar.toString());
        }
        assertResumesIdentically(name, params);
    }

    /**
     * The LSTM language model carries each worker's hidden state and window position; its run crosses an epoch
     * (7 windows), where the state restarts, and is stopped inside both epochs.
     */
    @Test
    void aLanguageModelResumesExactly() throws IOException {
        Map<String, Object> params = params("powersgd");
        params.put("dataset", "text");
        params.put("path", org.gridrun.engine.data.GeneratedText.write(tmp.resolve("story.txt"), 30, 5).toString());
        params.put("model", "lstm");
        params.put("lstm_units", 8L);
        params.put("lstm_layers", 2L);
        params.put("lstm_dropout", 0.2);
        params.put("bptt", 8L);
        params.put("batch_size", 3L);
        params.put("ngpu", 2L);
        params.put("clip_norm", 0.5);
        params.put("lr", 1.0);
        params.put("momentum", 0.0);
        params.put(org.gridrun.engine.compress.ErrorFeedback.PARAMETER, true);
        assertResumesIdentically("lstm", params);
    }

    private void assertResumesIdentically(String method, Map<String, Object> params) throws IOException {
        RunDir straight = stage("straight", "id-" + method, params);
        TrainResult expected = TrainJob.run(straight, TrainListener.NONE);
        assertFalse(expected.stopped());
        assertEquals(12, expected.steps());

        RunDir resumed = stage("resumed", "id-" + method, params);
        TrainResult first = runStoppingAt(resumed, 0);
        assertEquals(new StopResult(0, "before the start"), StopResult.of(first));
        assertEquals(OptionalLong.of(0), TrainJob.checkpointStep(resumed));

        // After a log record, before the periodic checkpoint at 6: the stop saves one of its own.
        assertEquals(new StopResult(4, "test stop at 4"), StopResult.of(runStoppingAt(resumed, 4)));
        assertEquals(OptionalLong.of(4), TrainJob.checkpointStep(resumed));
        Files.writeString(resumed.checkpointFile().resolveSibling("checkpoint.bin.tmp"), "torn by a kill");

        // At the periodic checkpoint, halfway through a log interval (steps 5 and 6 are summed, not yet recorded).
        assertEquals(new StopResult(6, "test stop at 6"), StopResult.of(runStoppingAt(resumed, 6)));
        assertEquals(OptionalLong.of(6), TrainJob.checkpointStep(resumed));
        // A lost tail: records written after the checkpoint by a job that was then killed.
        try (MetricSpool.Writer out = MetricSpool.append(resumed.metricsFile())) {
            out.write(new MetricRecord("loss", 8, 99.0, 0));
        }

        TrainResult last = TrainJob.run(resumed, TrainListener.NONE);
        assertFalse(last.stopped(), method);
        assertEquals(12, last.steps(), method);
        List<String> values = values(resumed);
        List<String> straightValues = values(straight);
        if (!values.equals(straightValues)) {
            // Which part lost what: the first record that differs names the step, and a second straight run says
            // whether training itself repeats.
            RunDir again = stage("again", "id-" + method, params);
            TrainJob.run(again, TrainListener.NONE);
            assertEquals(straightValues, values, method + ": the resumed run's records against the straight run's ("
                    + (values(again).equals(straightValues) ? "a second straight run repeats the first"
                            : "a second straight run differs from the first too") + ")");
        }
        assertEquals(expected.finalAccuracy(), last.finalAccuracy(), 0, method);
        assertEquals(expected.finalLoss(), last.finalLoss(), 0, method);
        if (method.equals("adam")) {
            // The rate each logged step used: warm-up over, then 0.01·0.1 after step 5, 0.01·0.01 after step 9.
            double[] lr = values.stream().filter(v -> v.startsWith("lr,")).mapToDouble(
                    v -> Double.parseDouble(v.substring(v.lastIndexOf(',') + 1))).toArray();
            assertArrayEquals(new double[] {0.01, 0.001, 0.0001}, lr, 1e-15);
        }
        assertEquals(values.size(), new HashSet<>(values).size());
        List<MetricRecord> all = MetricSpool.read(resumed.metricsFile());
        assertEquals(all.size(), all.stream().map(r -> r.name() + "@" + r.step()).distinct().count(),
                "no (name, step) twice");
        // Both runs saved a checkpoint at step 12 (a multiple of chkpt_iter), after the last log record emptied the
        // interval sums: equal files mean equal parameters, momentum, samplers and random streams.
        assertArrayEquals(Files.readAllBytes(straight.checkpointFile()), Files.readAllBytes(resumed.checkpointFile()));
    }

    record StopResult(long steps, String reason) {
        static StopResult of(TrainResult result) {
            assertTrue(result.stopped(), "stopped");
            assertFalse(result.diverged());
            return new StopResult(result.steps(), result.stopReason());
        }
    }

    @Test
    void aResumedRunSaysSoAndStartsFromTheCheckpoint() {
        RunDir dir = stage("exp", "id1", params("qsgd"));
        runStoppingAt(dir, 6);
        List<String> started = new ArrayList<>();
        List<Long> logged = new ArrayList<>();
        TrainJob.run(dir, new TrainListener() {
            @Override
            public void onStart(String info) {
                started.add(info);
            }

            @Override
            public void onLog(long step, long total, double loss, double samplesPerSecond) {
                logged.add(step);
            }
        });
        assertTrue(started.get(0).endsWith("; resumed from checkpoint at step 6"), started.get(0));
        assertEquals(List.of(8L, 12L), logged);
    }

    @Test
    void aCheckpointOfAnotherConfigIsNeverLoaded() {
        Map<String, Object> params = params("none");
        RunDir dir = stage("exp", "id1", params);
        runStoppingAt(dir, 6);
        dir.writeExperiment(new ExperimentRecord("g", "r", "exp", "id2", params, TrainerConfig.resolve(params)));
        assertEquals(OptionalLong.empty(), TrainJob.checkpointStep(dir));

        List<String> started = new ArrayList<>();
        TrainResult result = TrainJob.run(dir, new TrainListener() {
            @Override
            public void onStart(String info) {
                started.add(info);
            }
        });
        assertFalse(started.get(0).contains("resumed"), started.get(0));
        assertEquals(12, result.steps());
        assertEquals(List.of(4L, 8L, 12L), MetricSpool.read(dir.metricsFile()).stream()
                .filter(r -> r.name().equals("loss")).map(MetricRecord::step).toList(), "the old records are gone");
        assertEquals(OptionalLong.of(12), TrainJob.checkpointStep(dir), "the next save replaced it");
    }

    @Test
    void aCheckpointThatCannotBeResumedFailsNamingTheFile() throws IOException {
        RunDir dir = stage("exp", "id1", params("qsgd"));
        runStoppingAt(dir, 4);
        Path file = dir.checkpointFile();
        byte[] saved = Files.readAllBytes(file);

        byte[] damaged = saved.clone();
        damaged[damaged.length / 2] ^= 1;
        Files.write(file, damaged);
        assertEquals(file + ": cannot resume from this checkpoint: its checksum does not match: the file is damaged; "
                + "delete it to train from the start", assertThrows(BadFileException.class,
                        () -> TrainJob.run(dir, TrainListener.NONE)).getMessage());

        Files.writeString(file, "name,step,value,wall_ms\n");
        assertEquals(file + ": cannot resume from this checkpoint: it is not a gridrun checkpoint; delete it to "
                + "train from the start", assertThrows(BadFileException.class,
                        () -> TrainJob.checkpointStep(dir)).getMessage());

        Map<String, Object> wider = params("qsgd");
        wider.put("hidden", "17");
        RunDir other = stage("other", "id1", wider);
        Files.write(other.checkpointFile(), saved);
        assertEquals(other.checkpointFile() + ": cannot resume from this checkpoint: saved model has 12730 values; "
                + "this one has 13525; delete it to train from the start", assertThrows(BadFileException.class,
                        () -> TrainJob.run(other, TrainListener.NONE)).getMessage());
    }

    @Test
    void theFirstStopRequestWins() {
        StopSignal stop = new StopSignal();
        assertEquals("", stop.reason());
        assertTrue(stop.request("SIGUSR1"));
        assertFalse(stop.request("SIGTERM"));
        assertTrue(stop.isRequested());
        assertEquals("SIGUSR1", stop.reason());
        assertThrows(IllegalArgumentException.class, () -> stop.request(" "));
    }
}
