package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.MetricSpool;
import org.gridrun.engine.run.RunState;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.PlannedExperiment;
import org.gridrun.jobs.plan.Planner;
import org.gridrun.jobs.plan.TrainerKeySchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grid run by the path of its file, outside {@code grids/}, with one experiment that ended outside this grid-run
 * (as an earlier, killed grid-run's trainer does) and one still running elsewhere: the run ingests the first and names
 * the second, and every command takes the grid by the same path.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GridLifecycleTest {
    private static final String GRID = """
            defaults: {hidden: 8, ngpu: 2, batch_size: 8, niters: 4, log_interval: 2, chkpt_iter: 2}
            runs:
              r:
                exclude: [hidden, ngpu, batch_size, niters, log_interval, chkpt_iter]
                seeds: 3
                grid: {method: none}
            """;

    @TempDir
    static Path workdir;

    private Path gridFile;
    private PlannedExperiment endedElsewhere;
    private PlannedExperiment runningElsewhere;
    private Cli.Result run;

    @BeforeAll
    void runTheGridAfterAnEarlierRunLeftTwoExperimentsBehind() throws IOException {
        gridFile = workdir.resolve("elsewhere/sub/orphans.yaml");
        Files.createDirectories(gridFile.getParent());
        Files.writeString(gridFile, GRID);
        Workspace workspace = Workspace.at(workdir, null);
        Plan plan;
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            plan = new Planner(workspace, store).plan(GridFile.load(gridFile, new TrainerKeySchema()), null);
        }
        endedElsewhere = plan.experiments().get(0);
        endedElsewhere.dir().writeExperiment(endedElsewhere.record());
        Cli.Result trained = Cli.run(workdir, "train", endedElsewhere.dir().path().toString());
        assertEquals(0, trained.exit(), trained.err());
        runningElsewhere = plan.experiments().get(1);
        runningElsewhere.dir().writeExperiment(runningElsewhere.record());
        runningElsewhere.dir().status().append(RunState.RUNNING, "pid " + ProcessHandle.current().pid());
        run = Cli.run(workdir, "--grid", gridFile.toString(), "--jobs", "1");
    }

    @Test
    @Order(1)
    void theRunIngestsWhatEndedElsewhereAndNamesWhatStillRuns() {
        assertTrue(run.out().contains("3 experiments, 1 already completed, 1 queued or running, 1 to run"), run.out());
        assertTrue(run.out().contains("ingested 1 experiment that ended elsewhere"), run.out());
        assertTrue(run.out().contains("1 experiment is still running elsewhere"), run.out());
        assertTrue(run.out().contains("  " + runningElsewhere.record().name() + "  [RUNNING, pid "
                + ProcessHandle.current().pid()), run.out());
        assertEquals(1, run.exit(), "one experiment has not completed yet");
        assertTrue(run.out().contains("report: 3 experiment pages"), "the report holds all three:\n" + run.out());
        try (ResultsStore store = ResultsStore.open(workdir.resolve("runs/gridrun"))) {
            String id = endedElsewhere.record().id();
            assertEquals(Optional.of(RunState.COMPLETED), store.state(id));
            int stored = store.latest(id).keySet().stream().mapToInt(m -> store.series(id, m).size()).sum();
            assertEquals(MetricSpool.read(endedElsewhere.dir().metricsFile()).size(), stored);
        }
    }

    @Test
    @Order(2)
    void statusTakesTheGridByItsPath() {
        Cli.Result byPath = Cli.run(workdir, "status", "--grid", gridFile.toString());
        Cli.Result byName = Cli.run(workdir, "status", "--grid", "orphans");
        assertEquals(0, byPath.exit(), byPath.err());
        assertTrue(byPath.out().contains("grid orphans: RUNNING 1, COMPLETED 2"), byPath.out());
        assertEquals(byName.out(), byPath.out());
    }

    @Test
    @Order(3)
    void reportTakesTheGridByItsPath() {
        Cli.Result byPath = Cli.run(workdir, "report", "--grid", gridFile.toString());
        assertEquals(0, byPath.exit(), byPath.err());
        assertTrue(byPath.out().contains("report: " + Path.of("reports", "orphans", "index.html")), byPath.out());
    }

    @Test
    @Order(4)
    void cancelTakesTheGridByItsPath() {
        runningElsewhere.dir().status().append(RunState.COMPLETED, "finished elsewhere");
        Cli.Result byPath = Cli.run(workdir, "cancel", "--grid", gridFile.toString());
        assertEquals(0, byPath.exit(), byPath.err());
        assertTrue(byPath.out().contains("grid orphans: nothing queued or running"), byPath.out());
    }

    @Test
    void aPathThatNamesNoFileIsBadInputNotAnEmptyGrid() {
        for (String command : List.of("status", "report", "cancel")) {
            Cli.Result missing = Cli.run(workdir, command, "--grid", workdir.resolve("nowhere/g.yaml").toString());
            assertEquals(2, missing.exit(), command + ": " + missing.err());
            assertTrue(missing.err().contains("no grid"), command + ": " + missing.err());
        }
    }
}
