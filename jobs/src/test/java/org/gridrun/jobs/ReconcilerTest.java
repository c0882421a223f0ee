package org.gridrun.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.run.StatusFile;
import org.gridrun.jobs.slurm.ClusterLimits;
import org.gridrun.jobs.slurm.QueuedTask;
import org.gridrun.jobs.slurm.SlurmClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReconcilerTest {
    @TempDir
    Path tmp;

    /** A SLURM whose queue holds exactly array job 7's task 1. */
    private static final SlurmClient QUEUE_HOLDS_7_1 = new SlurmClient() {
        @Override
        public boolean available() {
            return true;
        }

        @Override
        public String submit(List<String> options, Path file) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<QueuedTask> queue(Collection<String> jobIds) {
            return jobIds.contains("7") ? List.of(new QueuedTask("7", 1, "RUNNING", "me")) : List.of();
        }

        @Override
        public void cancel(Collection<String> jobIdsOrTasks) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ClusterLimits limits() {
            return ClusterLimits.UNKNOWN;
        }
    };

    private RunDir dir(String name, RunState state, String job, String detail) {
        ExperimentRecord record = new ExperimentRecord("g", "r", name, "id-" + name, Map.of("lr", 0.1),
                Map.of("lr", 0.1));
        RunDir dir = RunDir.at(tmp.resolve("runs/g/r").resolve(name));
        dir.writeExperiment(record);
        dir.status().append(RunState.QUEUED, job, "");
        if (state != RunState.QUEUED) {
            dir.status().append(state, "", detail);
        }
        return dir;
    }

    @Test
    void jobsThatLeftTheQueueOrProcessesThatDiedAreKilledAndTheOthersKept() throws Exception {
        Process finished = new ProcessBuilder("true").start();
        finished.waitFor();
        RunDir deadLocal = dir("dead", RunState.RUNNING, "local:1", "pid " + finished.pid());
        RunDir liveLocal = dir("live", RunState.RUNNING, "local:1", "pid " + ProcessHandle.current().pid());
        RunDir goneSlurm = dir("gone", RunState.RUNNING, "slurm:7_0", "pid 1");
        RunDir queuedSlurm = dir("queued", RunState.QUEUED, "slurm:7_1", "");
        RunDir done = dir("done", RunState.COMPLETED, "slurm:7_2", "");
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            List<Reconciler.Gone> gone = new Reconciler(store, QUEUE_HOLDS_7_1)
                    .reconcile(List.of(deadLocal, liveLocal, goneSlurm, queuedSlurm, done));
            assertEquals(List.of(deadLocal, goneSlurm), gone.stream().map(Reconciler.Gone::dir).toList());
            assertEquals(RunState.KILLED, deadLocal.status().state());
            assertTrue(deadLocal.status().current().orElseThrow().detail().contains("is gone"));
            assertTrue(goneSlurm.status().current().orElseThrow().detail().contains("slurm job 7_0 left the queue"));
            assertEquals(RunState.RUNNING, liveLocal.status().state());
            assertEquals(RunState.QUEUED, queuedSlurm.status().state());
            assertEquals(RunState.COMPLETED, done.status().state());
            assertEquals(RunState.KILLED, store.state("id-gone").orElseThrow());
        }
    }

    @Test
    void aQueuedExperimentWhoseJobVanishedBeforeItStartedIsKilledInTheStore() {
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            for (String name : List.of("waiting", "vanished")) {
                ExperimentRecord record = new ExperimentRecord("g", "r", name, "id-" + name, Map.of(), Map.of());
                store.recordState(record, tmp.resolve("runs/g/r").resolve(name), new StatusEntry(RunState.QUEUED,
                        Instant.now(), StatusFile.hostName(), name.equals("waiting") ? "slurm:7_1" : "slurm:8_0", ""));
            }
            var gone = new Reconciler(store, QUEUE_HOLDS_7_1).reconcileUnstarted(store.experiments("g", null));
            assertEquals(List.of("vanished"), gone.stream().map(e -> e.name()).toList());
            assertEquals(RunState.KILLED, store.state("id-vanished").orElseThrow());
            assertEquals(RunState.QUEUED, store.state("id-waiting").orElseThrow());
        }
    }

    @Test
    void anExperimentWhoseTrainerLockAnotherProcessHoldsIsNotGoneWhateverItsStatusSays() throws Exception {
        Process finished = new ProcessBuilder("true").start();
        finished.waitFor();
        RunDir starting = dir("starting", RunState.QUEUED, "local:" + finished.pid(), "");
        Process trainer = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), HoldTrainerLock.class.getName(),
                starting.path().toString()).redirectErrorStream(true).start();
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"));
             var out = new java.io.BufferedReader(new java.io.InputStreamReader(trainer.getInputStream()))) {
            assertEquals("held", out.readLine());
            assertTrue(TrainerLock.tryAcquire(starting).isEmpty(), "a second trainer does not get it");
            assertEquals(List.of(), new Reconciler(store, null).reconcile(List.of(starting)));
            trainer.getOutputStream().close();
            trainer.waitFor();
            assertEquals(List.of(starting), new Reconciler(store, null).reconcile(List.of(starting)).stream()
                    .map(Reconciler.Gone::dir).toList(), "once the trainer is gone, so is the experiment");
            try (TrainerLock lock = TrainerLock.tryAcquire(starting).orElseThrow()) {
                assertTrue(TrainerLock.held(starting));
            }
        }
    }
}
