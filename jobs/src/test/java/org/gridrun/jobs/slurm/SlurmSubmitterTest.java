package org.gridrun.jobs.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.Submission;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.grids.SlurmSpec;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.plan.PlannedExperiment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmSubmitterTest {
    @TempDir
    Path work;

    private List<PlannedExperiment> experiments(int n) {
        List<PlannedExperiment> result = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = String.format("r_%03d_lr_%d", i, i);
            ExperimentRecord record = new ExperimentRecord("g", "r", name, "id" + i, Map.of("lr", (long) i),
                    Map.of("lr", (long) i));
            result.add(new PlannedExperiment(record, RunDir.at(work.resolve("runs/g/r").resolve(name)), null));
        }
        return result;
    }

    private SlurmSubmitter submitter(ResultsStore store, FakeSlurm slurm, String clusterArgs) {
        return new SlurmSubmitter(Workspace.at(work, null), store, slurm, ClusterArgs.parse(clusterArgs), "test");
    }

    @Test
    void experimentsGoRoundRobinOverTheScriptsAndEachIsQueuedWithItsArrayTask() throws Exception {
        FakeSlurm slurm = new FakeSlurm();
        List<PlannedExperiment> planned = experiments(5);
        try (ResultsStore store = ResultsStore.open(work.resolve("db"))) {
            SlurmSubmitter.Result result = submitter(store, slurm, "2,1,debug").write("g", "r", "g_r", planned,
                    SlurmSpec.empty(), List.of(), true);
            assertEquals(List.of("100"), result.jobIds());
            assertEquals(List.of("100  g_r_slurm.sbatch"), slurm.submitted);
            String script0 = Files.readString(work.resolve("jobs/g_r_0.sh"));
            assertTrue(script0.contains("r_000_lr_0;") && script0.contains("r_002_lr_2;")
                    && script0.contains("r_004_lr_4;") && !script0.contains("r_001"), script0);
            // the script's third experiment, in slot 2 (the third GPU of a task given several)
            String line = script0.lines().filter(l -> l.contains("r_004_lr_4"))
                    .filter(l -> l.startsWith("GRIDRUN_GPU_SLOT=2 train --experiment ")).findFirst().orElseThrow();
            String json = line.substring(line.indexOf('\'') + 1, line.lastIndexOf('\''));
            assertEquals("r_004_lr_4", ExperimentJson.decode(json).name());
            assertEquals(Map.of("lr", 4L), ExperimentJson.decode(json).params());
            assertTrue(!Files.exists(planned.get(0).dir().path()), "each job stages its own run directory");
            String sbatch = Files.readString(work.resolve("jobs/g_r_slurm.sbatch"));
            assertTrue(sbatch.contains("--array=0-1%1\n") && sbatch.contains("--partition=debug\n"), sbatch);
            assertTrue(Files.isDirectory(work.resolve("jobs/log")), "the log folder exists before submission");
            assertEquals(RunState.QUEUED, store.state("id3").orElseThrow());
            assertEquals("slurm:100_1", store.experiments("g", "r").get(3).job());
            Submission s = store.submissions("g", "r").get(0);
            assertEquals(List.of("100", "jobs/g_r", 0, 2, 5), List.of(s.jobId(), s.scriptPrefix(), s.firstScript(),
                    s.tasks(), s.experiments()));
        }
    }

    @Test
    void aPlanBeyondTheArrayLimitIsSplitIntoArraysIndexedFromZeroWithAnOffset() throws Exception {
        FakeSlurm slurm = new FakeSlurm();
        slurm.maxArraySize = 2;
        List<PlannedExperiment> planned = experiments(5);
        try (ResultsStore store = ResultsStore.open(work.resolve("db"))) {
            SlurmSubmitter.Result result = submitter(store, slurm, "").write("g", "r", "g_r", planned,
                    SlurmSpec.empty(), List.of("7"), true);
            assertEquals(List.of("100", "101", "102"), result.jobIds());
            assertEquals("101 --dependency=afterok:7 g_r_slurm_1.sbatch", slurm.submitted.get(1));
            String second = Files.readString(work.resolve("jobs/g_r_slurm_1.sbatch"));
            assertTrue(second.contains("--array=0-1\n") && second.contains("$((SLURM_ARRAY_TASK_ID + 2))"), second);
            assertEquals("slurm:102_0", store.experiments("g", "r").get(4).job());
        }
    }

    @Test
    void aRefusedLaterArrayLeavesItsExperimentsUnqueuedAndSaysHowToContinue() throws Exception {
        FakeSlurm slurm = new FakeSlurm();
        slurm.maxArraySize = 2;
        slurm.refuseAfter = 1;
        List<PlannedExperiment> planned = experiments(3);
        try (ResultsStore store = ResultsStore.open(work.resolve("db"))) {
            SlurmSubmitter.Result result = submitter(store, slurm, "").write("g", "r", "g_r", planned,
                    SlurmSpec.empty(), List.of(), true);
            assertEquals(List.of("100"), result.jobIds());
            assertTrue(result.notSubmitted().contains("1 of 2 arrays were submitted"), result.notSubmitted());
            assertEquals(RunState.QUEUED, store.state("id1").orElseThrow());
            assertTrue(store.state("id2").isEmpty(), "the refused array's experiment is not queued");
        }
    }

    @Test
    void scriptsOfAnArrayStillInTheQueueAreNeverOverwritten() throws Exception {
        FakeSlurm slurm = new FakeSlurm();
        try (ResultsStore store = ResultsStore.open(work.resolve("db"))) {
            submitter(store, slurm, "").write("g", "r", "g_r", experiments(2), SlurmSpec.empty(), List.of(), true);
            String before = Files.readString(work.resolve("jobs/g_r_0.sh"));
            SlurmSubmitter.Result again = submitter(store, slurm, "").write("g", "r", "g_r", experiments(3)
                    .subList(2, 3), SlurmSpec.empty(), List.of(), true);
            assertEquals("g_r-2", again.scriptPrefix());
            assertEquals(before, Files.readString(work.resolve("jobs/g_r_0.sh")));
            slurm.queue.clear();
            assertEquals("g_r", submitter(store, slurm, "").write("g", "r", "g_r", experiments(1),
                    SlurmSpec.empty(), List.of(), false).scriptPrefix());
        }
    }

    @Test
    void noScriptHoldsTheStoresSecret() throws Exception {
        try (ResultsStore store = ResultsStore.open(work.resolve("runs/gridrun"))) {
            submitter(store, new FakeSlurm(), "2,1,debug").write("g", "r", "g_r", experiments(3), SlurmSpec.empty(),
                    List.of(), true);
        }
        String secret = Files.readString(work.resolve("runs/.gridrun-secret")).strip();
        List<Path> written;
        try (var files = Files.walk(work.resolve("jobs"))) {
            written = files.filter(Files::isRegularFile).toList();
        }
        assertTrue(written.size() >= 3, "scripts written: " + written);
        for (Path file : written) {
            String text = Files.readString(file);
            assertTrue(!text.contains(secret) && !text.contains("GRIDRUN_DB_SECRET="), file + " holds the secret");
        }
    }
}
