package org.gridrun.jobs.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.train.TrainJob;
import org.gridrun.jobs.cli.Listeners;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults as figures: a grid of 16 short experiments on the local executor, through a kill -9 of a trainer past a
 * checkpoint, a kill -9 of the parent grid-run (its trainers finish as orphans), a torn last line of the killed
 * trainer's spool, and a SIGINT of the next parent; then the grid is run again until it completes.
 *
 * <p>It checks, and prints on one line, how many experiments completed, the faults injected, the store's rows
 * against the spools' lines (none lost, none twice), and that no attempt trained again steps that a checkpoint on
 * disk when it started had covered ({@link CheckpointWatch}); and that every grid-run listened on loopback only.
 * The draws (which trainer, how long to wait) come from a fixed seed, printed with the figures; what the faults
 * hit varies with timing, what is asserted does not.
 */
class ChaosTest {
    private static final long SEED = 1_618L;
    private static final String GRID = """
            defaults: {hidden: 16, ngpu: 2, batch_size: 8, niters: 40, log_interval: 2, chkpt_iter: 5}
            runs:
              c:
                exclude: [hidden, ngpu, batch_size, niters, log_interval, chkpt_iter]
                seeds: 8
                grid: {method: [none, qsgd]}
            """;
    private static final int EXPERIMENTS = 16;
    private static final long NITERS = 40;
    private static final long CHKPT = 5;
    private static final int MAX_RUNS = 8;
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final Pattern PID = Pattern.compile("^pid (\\d+)\\b");
    private static final Pattern RESUMED = Pattern.compile("resumed from checkpoint at step (\\d+)");

    @TempDir
    Path workdir;

    private final List<String> listening = new ArrayList<>();
    private int samples;

    @Test
    @Timeout(value = 170, unit = TimeUnit.SECONDS)
    void aGridThroughKillsAndInterruptsCompletesWithEveryRowOnceAndNothingTrainedTwice() throws Exception {
        Random random = new Random(SEED);
        Files.createDirectories(workdir.resolve("grids"));
        Files.writeString(workdir.resolve("grids/chaos.yaml"), GRID);
        String path = pathWithoutSlurm();
        Path runDirs = workdir.resolve("runs/chaos/c");
        int[] faults = new int[4];
        List<ChaosParent> parents = new ArrayList<>();
        int exit;
        ChaosAudit audit;
        String interrupted;
        try (CheckpointWatch watch = CheckpointWatch.start(runDirs)) {
            ChaosParent first = start(parents, path);
            ChaosParent.Trainer victim = awaitTrainerPastCheckpoint(first);
            victim.process().destroyForcibly();
            victim.process().onExit().get(30, TimeUnit.SECONDS);
            faults[0]++;
            pause(first, 300 + random.nextInt(1200));
            awaitTrainer(first);
            first.kill();
            faults[1]++;
            tearLastLine(victim.dir());
            faults[2]++;
            ChaosParent second = start(parents, path);
            awaitTrainerPastCheckpoint(second);
            pause(second, 100 + random.nextInt(700));
            second.interrupt();
            faults[3]++;
            second.awaitExit(PATIENCE);
            interrupted = second.output();
            do {
                exit = start(parents, path).awaitExit(PATIENCE.multipliedBy(2));
            } while (exit != 0 && parents.size() < MAX_RUNS);
            audit = ChaosAudit.of(runDirs, workdir.resolve("runs/gridrun"), watch);
        }
        System.out.printf(Locale.ROOT, "chaos, seed %d: %d of %d experiments completed after %d grid-runs; %d faults "
                + "injected (trainer kill -9 %d, parent kill -9 %d, torn last spool line %d, parent SIGINT %d); "
                + "rows in the store %d = lines in the spools %d (%d lost, %d duplicated); %d trainer starts, %d "
                + "resumed from a checkpoint, %d steps trained twice past a checkpoint; %d listeners seen in %d "
                + "samples, %s%n",
                SEED, audit.completed(), audit.experiments(), parents.size(), faults[0] + faults[1] + faults[2]
                        + faults[3], faults[0], faults[1], faults[2], faults[3], audit.storeRows(), audit.spoolLines(),
                audit.lost(), audit.duplicated(), audit.attempts(), audit.resumed(), audit.retrained(),
                listening.size(), samples,
                listening.stream().allMatch(Listeners::loopback) ? "all on loopback" : "NOT ALL ON LOOPBACK "
                        + listening);
        String last = parents.get(parents.size() - 1).output();
        assertEquals(0, exit, "the last grid-run completes the grid:\n" + last);
        // Its store closes under it as the JVM shuts down: the interrupted grid-run leaves it alone, no error.
        assertFalse(interrupted.contains("error"), "the interrupted grid-run ends without an error:\n" + interrupted);
        assertEquals(EXPERIMENTS, audit.experiments());
        assertEquals(EXPERIMENTS, audit.completed(), last);
        assertEquals(4, faults[0] + faults[1] + faults[2] + faults[3]);
        assertEquals(0, audit.lost(), "spool records missing from the store");
        assertEquals(0, audit.duplicated(), "store rows twice or without a spool record");
        assertEquals(audit.spoolLines(), audit.storeRows());
        assertTrue(audit.resumed() >= 1, "the killed trainer resumed from its checkpoint");
        assertEquals(0, audit.retrained(), "steps trained again past a checkpoint");
        assertTrue(listening.stream().allMatch(Listeners::loopback), "grid-run listened beyond loopback: " + listening);
    }

    private ChaosParent start(List<ChaosParent> parents, String path) throws IOException {
        ChaosParent parent = ChaosParent.start(workdir, "chaos", path, parents.size() + 1);
        parents.add(parent);
        return parent;
    }

    /**
     * Waits until {@code parent} runs a trainer that has saved a checkpoint in this attempt, and has at least three
     * left to save.
     */
    private ChaosParent.Trainer awaitTrainerPastCheckpoint(ChaosParent parent) throws Exception {
        return await(parent, "a trainer past a checkpoint", () -> parent.trainers().stream()
                .filter(ChaosTest::pastCheckpointThisAttempt).findFirst());
    }

    private static boolean pastCheckpointThisAttempt(ChaosParent.Trainer t) {
        try {
            StatusEntry now = t.dir().status().current().orElse(null);
            Matcher pid = PID.matcher(now == null ? "" : now.detail());
            if (now.state() != RunState.RUNNING || !pid.find() || Long.parseLong(pid.group(1)) != t.process().pid()) {
                return false;
            }
            Matcher resumed = RESUMED.matcher(now.detail());
            long from = resumed.find() ? Long.parseLong(resumed.group(1)) : 0;
            long step = TrainJob.checkpointStep(t.dir()).orElse(0);
            return step >= from + CHKPT && step <= NITERS - 3 * CHKPT;
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private ChaosParent.Trainer awaitTrainer(ChaosParent parent) throws Exception {
        return await(parent, "a running trainer", () -> parent.trainers().stream().findFirst());
    }

    private <T> T await(ChaosParent parent, String what, java.util.function.Supplier<Optional<T>> found)
            throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline && parent.alive()) {
            sample(parent);
            Optional<T> t = found.get();
            if (t.isPresent()) {
                return t.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("grid-run " + parent.pid() + " showed no " + what + ":\n" + parent.output());
    }

    /** Sleeps {@code millis}, noting what {@code parent} listens on meanwhile. */
    private void pause(ChaosParent parent, long millis) throws InterruptedException {
        sample(parent);
        Thread.sleep(millis);
        sample(parent);
    }

    private void sample(ChaosParent parent) {
        if (Listeners.available() && parent.alive() && samples < 200) {
            samples++;
            listening.addAll(Listeners.of(parent.pid()));
        }
    }

    /**
     * Leaves the spool of a killed trainer as a kill in mid-write does: its last record cut in half when it lies past
     * the checkpoint (the resumed run writes it again), else half a record of the next step appended.
     */
    private static void tearLastLine(RunDir dir) throws IOException {
        long checkpoint = TrainJob.checkpointStep(dir).orElse(0);
        String text = Files.readString(dir.metricsFile(), StandardCharsets.UTF_8);
        int start = text.lastIndexOf('\n', text.length() - 2) + 1;
        String[] last = text.substring(start).strip().split(",");
        if (last.length == 4 && Long.parseLong(last[1]) > checkpoint) {
            int cut = start + (text.length() - start) / 2;
            Files.writeString(dir.metricsFile(), text.substring(0, cut), StandardCharsets.UTF_8);
        } else {
            Files.writeString(dir.metricsFile(), "loss," + (checkpoint + 1) + ",0.4", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        }
    }

    /**
     * The parents' {@code PATH}: a folder with git and nothing of SLURM, so that no grid-run waits on an sinfo that
     * does not answer (this test is about the local executor).
     */
    private String pathWithoutSlurm() throws IOException {
        Path bin = Files.createDirectories(workdir.resolve("bin"));
        Path git = Path.of("/usr/bin/git");
        if (Files.isExecutable(git)) {
            Files.createSymbolicLink(bin.resolve("git"), git);
        }
        return bin.toString();
    }
}
