package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.jobs.Reconciler;
import org.gridrun.jobs.slurm.ProcessSlurmClient;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small real grid through the real command line and a real SLURM (start one with
 * {@code scripts/slurm-local.sh start}; CI does): submit, wait for COMPLETED in the store, cancel one experiment and
 * resubmit it, and preempt one with the USR1 its time limit would send, which requeues it and resumes it from its
 * checkpoint. Skipped, saying why, when no SLURM answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlurmLifecycleTest {
    private static final String GRID = """
            defaults:
              hidden: 16
              ngpu: 2
              batch_size: 8
              log_interval: 50
            slurm:
              time: "10"
              max-requeues: 2
            runs:
              quick:
                exclude: [hidden, ngpu, batch_size, log_interval, niters, chkpt_iter]
                seeds: 3
                grid:
                  method: qsgd
                  bits: 2
                  bucket_size: 64
                  niters: 6
                  chkpt_iter: 3
              slow:
                exclude: [hidden, ngpu, batch_size, log_interval, niters, chkpt_iter]
                seeds: 2
                grid:
                  method: none
                  niters: 60000
                  chkpt_iter: 500
            """;
    private static final long TIMEOUT_S = 240;

    @TempDir
    static Path workdir;

    @BeforeAll
    void needsSlurm() throws IOException {
        Assumptions.assumeTrue(new ProcessSlurmClient().available(),
                "no SLURM answers (sinfo failed): start one with scripts/slurm-local.sh start");
        Files.createDirectories(workdir.resolve("grids"));
        Files.writeString(workdir.resolve("grids/sl.yaml"), GRID);
    }

    private Cli.Result gridRun(String... args) {
        return Cli.run(workdir, args);
    }

    private static List<RunDir> dirs(String run) throws IOException {
        Path root = workdir.resolve("runs/sl").resolve(run);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (var files = Files.list(root)) {
            return files.sorted().map(RunDir::at).toList();
        }
    }

    private static void await(String what, long seconds, Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + seconds + " s waiting until " + what + "; squeue:\n"
                        + new String(new ProcessBuilder("squeue").start().getInputStream().readAllBytes()));
            }
            Thread.sleep(500);
        }
    }

    interface Check {
        boolean ok() throws Exception;
    }

    private static boolean history(RunDir dir, Predicate<List<StatusEntry>> test) {
        return test.test(dir.status().history());
    }

    @Test
    @Order(1)
    void aSubmittedGridCompletesInTheStore() throws Exception {
        Cli.Result submitted = gridRun("--grid", "sl", "--run", "quick", "--cluster", "slurm", "--submit",
                "--cluster-args", "2,2");
        assertEquals(0, submitted.exit(), submitted.out() + submitted.err());
        assertTrue(submitted.out().contains("run quick: 3 experiments in 2 task scripts"), submitted.out());
        assertTrue(submitted.out().contains("as array job "), submitted.out());
        await("the 3 quick experiments completed", TIMEOUT_S, () -> dirs("quick").size() == 3
                && dirs("quick").stream().allMatch(d -> d.status().state() == RunState.COMPLETED));
        Cli.Result status = gridRun("status", "--grid", "sl");
        assertEquals(0, status.exit(), status.err());
        assertTrue(status.out().contains("grid sl: COMPLETED 3"), status.out() + status.err());
        Cli.Result again = gridRun("--grid", "sl", "--run", "quick", "--cluster", "slurm", "--submit");
        assertTrue(again.out().contains("3 already completed") && again.out().contains("nothing to submit"),
                again.out());
    }

    @Test
    @Order(2)
    void aCancelledExperimentIsResubmittedAndAPreemptedOneRequeuesAndResumes() throws Exception {
        Cli.Result submitted = gridRun("--grid", "sl", "--run", "slow", "--cluster", "slurm", "--submit",
                "--cluster-args", "2");
        assertEquals(0, submitted.exit(), submitted.out() + submitted.err());
        await("both slow experiments were staged by their jobs", TIMEOUT_S, () -> dirs("slow").size() == 2);
        RunDir cancelled = dirs("slow").get(0);
        RunDir preempted = dirs("slow").get(1);
        // each is stopped as soon as it runs with a checkpoint: the node may start the two at different times
        await("the first slow experiment runs and saved a checkpoint", TIMEOUT_S, () -> runsWithCheckpoint(cancelled));

        Cli.Result cancel = gridRun("cancel", "--grid", "sl", "--experiment", cancelled.path().getFileName().toString());
        assertEquals(0, cancel.exit(), cancel.out() + cancel.err());
        assertTrue(cancel.out().contains("cancelled 1 experiments (1 SLURM tasks"), cancel.out());
        await("the cancelled experiment is KILLED", 60, () -> cancelled.status().state() == RunState.KILLED);

        await("the second slow experiment runs and saved a checkpoint", TIMEOUT_S,
                () -> runsWithCheckpoint(preempted));
        String job = Reconciler.currentJob(preempted.status().history()).substring("slurm:".length());
        Process usr1 = new ProcessBuilder("scancel", "--batch", "--signal=USR1", job).inheritIO().start();
        assertEquals(0, usr1.waitFor(), "scancel --batch --signal=USR1 " + job);
        await("the preempted experiment records PREEMPTED", 60, () -> history(preempted,
                h -> h.stream().anyMatch(e -> e.state() == RunState.PREEMPTED)));
        await("the requeued experiment resumed from its checkpoint and completed", TIMEOUT_S,
                () -> preempted.status().state() == RunState.COMPLETED);
        assertTrue(history(preempted, h -> h.stream().anyMatch(e -> e.state() == RunState.RUNNING
                && e.detail().contains("resumed from checkpoint at step"))), preempted.status().history().toString());
        assertNoStepTwice(preempted);

        Cli.Result resubmit = gridRun("resubmit", "--grid", "sl", "--failed", "--cluster", "slurm", "--submit");
        assertEquals(0, resubmit.exit(), resubmit.out() + resubmit.err());
        assertTrue(resubmit.out().contains("run slow: 1 experiments in 1 task script"), resubmit.out());
        await("the resubmitted experiment completed", TIMEOUT_S, () -> cancelled.status().state() == RunState.COMPLETED);
        assertTrue(history(cancelled, h -> h.stream().anyMatch(e -> e.detail().contains("resumed from checkpoint"))),
                cancelled.status().history().toString());
        assertNoStepTwice(cancelled);
        Cli.Result status = gridRun("status", "--grid", "sl");
        assertTrue(status.out().contains("grid sl: COMPLETED 5"), status.out());
    }

    private static boolean runsWithCheckpoint(RunDir dir) {
        return dir.status().state() == RunState.RUNNING && Files.exists(dir.checkpointFile());
    }

    private static void assertNoStepTwice(RunDir dir) {
        Set<String> seen = new HashSet<>();
        for (MetricRecord m : MetricSpool.read(dir.metricsFile())) {
            assertTrue(seen.add(m.name() + "@" + m.step()), dir + ": " + m.name() + " at step " + m.step() + " twice");
        }
        assertTrue(seen.contains("Vacc@60000"), dir + " reached its last step");
    }
}
