package org.gridrun.jobs.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.backend.GpuSlot;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.jobs.plan.PlannedExperiment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local pool gives each job a slot (which picks its GPU): jobs running at once never share one, a finished job's
 * slot goes to the next, and no slot reaches {@code jobs}.
 */
class LocalExecutorSlotsTest {
    @TempDir
    Path work;

    @Test
    void jobsAtOnceHoldDistinctSlotsBelowTheJobCount() throws Exception {
        int jobs = 3;
        // unequal lengths, so that a slot freed in the middle of the pool is the one given next
        double[] seconds = {0.3, 1.2, 0.8, 0.4, 0.2, 0.5, 0.3, 0.2};
        List<PlannedExperiment> experiments = new ArrayList<>();
        for (int i = 0; i < seconds.length; i++) {
            experiments.add(staged("e" + i));
        }
        Map<String, Double> length = new HashMap<>();
        for (int i = 0; i < seconds.length; i++) {
            length.put(experiments.get(i).dir().path().toString(), seconds[i]);
        }
        Map<Integer, Process> holders = new HashMap<>();
        List<String> clashes = new ArrayList<>();
        TreeSet<Integer> used = new TreeSet<>();
        JobStarter starter = (dir, slot) -> {
            Process holder = holders.get(slot);
            if (holder != null && holder.isAlive() || slot < 0 || slot >= jobs) {
                clashes.add(dir.path().getFileName() + " got slot " + slot);
            }
            used.add(slot);
            ProcessBuilder builder = new ProcessBuilder("sleep", String.valueOf(length.get(dir.path().toString())));
            builder.environment().put(GpuSlot.VARIABLE, String.valueOf(slot));
            Process process = builder.start();
            holders.put(slot, process);
            return process;
        };
        try (ResultsStore store = ResultsStore.open(work.resolve("db"))) {
            new LocalExecutor(store, starter, jobs).run(experiments, new QuietObserver());
        }
        assertEquals(List.of(), clashes);
        assertEquals(new TreeSet<>(List.of(0, 1, 2)), used);
        for (PlannedExperiment e : experiments) {
            assertEquals(RunState.FAILED, e.dir().status().state(), "each stand-in ran and ended without a state");
        }
    }

    @Test
    void theLauncherPutsTheSlotInTheJobsEnvironment() {
        RunDir dir = staged("env").dir();
        ProcessBuilder builder = new JobLauncher(List.of()).processBuilder(dir, 5);
        assertEquals("5", builder.environment().get(GpuSlot.VARIABLE));
        assertEquals(dir.path().toFile(), builder.directory());
    }

    private PlannedExperiment staged(String name) {
        Map<String, Object> params = Map.of("niters", 10L);
        RunDir dir = RunDir.at(work.resolve("runs/g/r/" + name));
        dir.writeExperiment(new ExperimentRecord("g", "r", name, "id-" + name, params, TrainerConfig.resolve(params)));
        dir.status().append(RunState.QUEUED, "test");
        return new PlannedExperiment(dir.readExperiment(), dir, null);
    }

    private static final class QuietObserver implements RunObserver {
        @Override
        public void started(int experiments, long totalSteps) {
        }

        @Override
        public void progress(long doneSteps, List<PlannedExperiment> running) {
        }

        @Override
        public void finished(PlannedExperiment e, org.gridrun.engine.run.StatusEntry entry, double seconds,
                             String summary) {
        }

        @Override
        public void closed() {
        }
    }
}
