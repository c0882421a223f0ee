package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridrun.analysis.Attempt;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.BadFileException;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.train.TrainJob;
import org.gridrun.engine.train.TrainListener;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.jobs.GitProvenance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code grid-run train} records when a signal stops it: in process, with stop requests at chosen steps; and
 * in a child JVM, with real SIGUSR1 and SIGTERM.
 */
class TrainCommandTest {
    private static final String RUNNING_NOTE = TrainCommand.runningNote();

    @TempDir
    Path tmp;

    private RunDir stage(long niters, long logInterval, long chkptIter) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("hidden", "8");
        params.put("ngpu", 2L);
        params.put("batch_size", 8L);
        params.put("niters", niters);
        params.put("log_interval", logInterval);
        params.put("chkpt_iter", chkptIter);
        params.put("method", "qsgd");
        params.put("bits", 2L);
        params.put("bucket_size", 64L);
        RunDir dir = RunDir.at(tmp.resolve("runs/g/r/exp"));
        dir.writeExperiment(new ExperimentRecord("g", "r", "exp", "id1", params, TrainerConfig.resolve(params)));
        return dir;
    }

    /** Trains {@code dir} in process, requesting a stop for {@code cause} at log step {@code stopAt} (0: none). */
    private static int train(RunDir dir, TrainCommand.Interruption cause, long stopAt) {
        TrainCommand.Stopper stopper = new TrainCommand.Stopper(dir);
        return new TrainCommand().train(dir, stopper, new TrainListener() {
            @Override
            public void onLog(long step, long total, double loss, double samplesPerSecond) {
                if (step == stopAt) {
                    stopper.request(cause);
                }
            }
        });
    }

    private static List<String> lastTwo(RunDir dir) {
        List<StatusEntry> history = dir.status().history();
        return history.subList(history.size() - 2, history.size()).stream()
                .map(e -> e.state() + " " + e.detail()).toList();
    }

    private static List<Long> steps(RunDir dir, String metric) {
        return MetricSpool.read(dir.metricsFile()).stream().filter(r -> r.name().equals(metric))
                .map(MetricRecord::step).toList();
    }

    @Test
    void aStopRequestRecordsWhatItStandsForAndTheNextRunResumes() {
        RunDir dir = stage(10, 2, 4);
        assertEquals(TrainCommand.TERMINATED_EXIT, train(dir, TrainCommand.Interruption.SIGTERM, 6));
        assertEquals(List.of("RUNNING " + RUNNING_NOTE, "KILLED stopped by SIGTERM at step 6; checkpoint saved"),
                lastTwo(dir));
        assertEquals(OptionalLong.of(6), TrainJob.checkpointStep(dir));

        assertEquals(TrainCommand.PREEMPTED_EXIT, train(dir, TrainCommand.Interruption.SIGUSR1, 8));
        assertEquals(List.of("RUNNING " + RUNNING_NOTE + "; resumed from checkpoint at step 6",
                "PREEMPTED stopped by SIGUSR1 at step 8; checkpoint saved"), lastTwo(dir));

        assertEquals(0, train(dir, null, 0));
        List<String> finished = lastTwo(dir);
        assertEquals("RUNNING " + RUNNING_NOTE + "; resumed from checkpoint at step 8", finished.get(0));
        assertTrue(finished.get(1).startsWith("COMPLETED Vacc 0."), finished.get(1));
        assertTrue(finished.get(1).contains(" after 10 steps; "), finished.get(1));
        assertEquals(List.of(2L, 4L, 6L, 8L, 10L), steps(dir, "loss"));
        assertEquals(List.of(4L, 8L, 10L), steps(dir, "Vacc"));
    }

    @Test
    void aDamagedCheckpointIsNeverCalledResumedAndFailsWithItsMessage() throws IOException {
        RunDir dir = stage(10, 2, 4);
        assertEquals(TrainCommand.TERMINATED_EXIT, train(dir, TrainCommand.Interruption.SIGTERM, 6));
        byte[] bytes = Files.readAllBytes(dir.checkpointFile());
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(dir.checkpointFile(), bytes);
        assertEquals(OptionalLong.of(6), TrainJob.checkpointStep(dir), "the header alone still reads");

        BadFileException e = org.junit.jupiter.api.Assertions.assertThrows(BadFileException.class,
                () -> train(dir, null, 0));
        List<String> last = lastTwo(dir);
        assertEquals("RUNNING " + RUNNING_NOTE, last.get(0), "no resume is claimed before the file is checked");
        assertEquals("FAILED " + e.getMessage(), last.get(1));
        assertTrue(e.getMessage().startsWith(dir.checkpointFile() + ": cannot resume from this checkpoint: its "
                + "checksum does not match"), e.getMessage());
    }

    @Test
    void theAttemptRecordsTheCommitOfThisBuildAndStatusCountsIt() {
        RunDir dir = stage(4, 2, 4);
        assertEquals(0, train(dir, null, 0));
        GitProvenance build = GitProvenance.ofThisBuild().orElseThrow();
        try (ResultsStore store = ResultsStore.openUrl("jdbc:h2:mem:train-git")) {
            store.ingest(dir);
            Attempt attempt = store.attempts("id1").get(0);
            assertEquals(List.of(build.commit(), build.dirty()), List.of(attempt.gitCommit(), attempt.gitDirty()));
            assertEquals("git " + build.commit().substring(0, CodeVersions.SHORT_COMMIT)
                    + (build.dirty() ? "+dirty" : "") + " (1)", CodeVersions.of(store, store.experiments("g", null)));
        }
    }

    @Test
    void aShutdownWithoutACheckpointInTimeIsRecordedAsKilled() {
        RunDir dir = stage(10, 2, 4);
        TrainCommand.Stopper stopper = new TrainCommand.Stopper(dir);
        stopper.stopForShutdown(Duration.ofMillis(10));
        assertTrue(stopper.signal().isRequested());
        assertEquals(List.of("KILLED stopped by SIGTERM; no checkpoint within 0 s, the next run resumes from the "
                + "last periodic one"), dir.status().history().stream().map(e -> e.state() + " " + e.detail())
                .toList());
        assertEquals(TrainCommand.TERMINATED_EXIT, stopper.finish(() -> 0), "the hook recorded the final state");
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void realSignalsStopAChildJobWithACheckpoint() throws IOException, InterruptedException {
        RunDir dir = stage(100_000_000, 20, 100_000_000);

        Process first = startJob(dir);
        waitFor(dir, "training to run", d -> !MetricSpool.read(d.metricsFile()).isEmpty(), first);
        assertEquals(0, new ProcessBuilder("kill", "-USR1", String.valueOf(first.pid())).start().waitFor());
        assertEquals(TrainCommand.PREEMPTED_EXIT, exitCode(first, dir));
        long preempted = stoppedAt(dir, RunState.PREEMPTED, "SIGUSR1");
        assertEquals(OptionalLong.of(preempted), TrainJob.checkpointStep(dir));

        Process second = startJob(dir);
        waitFor(dir, "the resumed run to pass its checkpoint",
                d -> steps(d, "loss").stream().anyMatch(step -> step > preempted), second);
        assertTrue(dir.status().history().stream().anyMatch(e -> e.state() == RunState.RUNNING
                && e.detail().equals("pid " + second.pid() + GitProvenance.ofThisBuild().map(g -> "; " + g.note())
                .orElse("") + "; resumed from checkpoint at step " + preempted)));
        second.destroy(); // SIGTERM
        assertEquals(TrainCommand.TERMINATED_EXIT, exitCode(second, dir));
        long killed = stoppedAt(dir, RunState.KILLED, "SIGTERM");
        assertTrue(killed > preempted, killed + " after " + preempted);
        assertEquals(OptionalLong.of(killed), TrainJob.checkpointStep(dir));
        List<MetricRecord> records = MetricSpool.read(dir.metricsFile());
        assertEquals(records.size(), records.stream().map(r -> r.name() + "@" + r.step()).distinct().count(),
                "no (name, step) twice");
    }

    /** Every job a test started, killed after it whatever the outcome: a failed assertion must not orphan one. */
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftoverJobs() {
        started.forEach(Process::destroyForcibly);
    }

    private Process startJob(RunDir dir) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                GridRun.class.getName(), "train", dir.path().toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(dir.logFile().toFile()));
        Process job = builder.start();
        started.add(job);
        return job;
    }

    private static void waitFor(RunDir dir, String what, Predicate<RunDir> condition, Process job)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.test(dir)) {
            if (!job.isAlive() || System.nanoTime() > deadline) {
                job.destroyForcibly();
                throw new AssertionError("gave up waiting for " + what + "; log:\n" + Files.readString(dir.logFile()));
            }
            Thread.sleep(20);
        }
    }

    private static int exitCode(Process job, RunDir dir) throws IOException, InterruptedException {
        if (!job.waitFor(60, TimeUnit.SECONDS)) {
            job.destroyForcibly();
            throw new AssertionError("the job did not stop; log:\n" + Files.readString(dir.logFile()));
        }
        return job.exitValue();
    }

    /** The step in the last status entry, which must be {@code state} after {@code signal} with a checkpoint. */
    private static long stoppedAt(RunDir dir, RunState state, String signal) throws IOException {
        StatusEntry last = dir.status().current().orElseThrow();
        Matcher m = Pattern.compile("stopped by " + signal + " at step (\\d+); checkpoint saved").matcher(
                last.detail());
        assertTrue(last.state() == state && m.matches(), last + "; log:\n" + Files.readString(dir.logFile()));
        return Long.parseLong(m.group(1));
    }

    @Test
    void aSecondTrainerOfTheSameRunDirectoryLeavesItUntouched() {
        RunDir dir = stage(4, 2, 4);
        dir.status().append(RunState.QUEUED, "local:1", "");
        try (org.gridrun.jobs.TrainerLock first = org.gridrun.jobs.TrainerLock.tryAcquire(dir).orElseThrow()) {
            Cli.Result second = Cli.run(tmp, "train", dir.path().toString());
            assertEquals(org.gridrun.jobs.TrainerLock.HELD_EXIT, second.exit(), second.err());
            assertEquals(List.of(RunState.QUEUED), dir.status().history().stream().map(e -> e.state()).toList());
            assertTrue(!java.nio.file.Files.exists(dir.metricsFile()), "nothing written");
        }
        assertEquals(0, Cli.run(tmp, "train", dir.path().toString()).exit(), "free again once the first is done");
    }
}
