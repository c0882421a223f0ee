package org.gridrun.jobs.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunState;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlannerRunDirTest {
    @TempDir
    Path tmp;

    private Plan plan(String yaml) throws Exception {
        Path file = tmp.resolve("g.yaml");
        Files.writeString(file, yaml);
        try (ResultsStore store = ResultsStore.open(tmp.resolve("db"))) {
            return new Planner(Workspace.at(tmp, null), store).plan(GridFile.load(file, new TrainerKeySchema()), null);
        }
    }

    private static String grid(double lr) {
        return """
                runs:
                  r:
                    exclude: [lr]
                    grid: {niters: 5, lr: %s}
                """.formatted(lr);
    }

    /** Stages and completes the planned experiment, as a finished run leaves its directory. */
    private static PlannedExperiment complete(Plan plan) {
        PlannedExperiment e = plan.experiments().get(0);
        e.dir().writeExperiment(e.record());
        e.dir().status().append(RunState.COMPLETED, "done");
        return e;
    }

    @Test
    void theSameConfigurationFindsItsCompletedRun() throws Exception {
        complete(plan(grid(0.1)));
        Plan again = plan(grid(0.1));
        assertEquals(RunState.COMPLETED, again.experiments().get(0).known());
        assertTrue(again.toRun().isEmpty());
    }

    @Test
    void aChangedKeyLeftOutOfTheNameIsRefusedNotTakenForTheOldRun() throws Exception {
        PlannedExperiment old = complete(plan(grid(0.1)));
        UserInputException e = assertThrows(UserInputException.class, () -> plan(grid(0.05)));
        assertTrue(e.getMessage().startsWith(tmp.resolve("g.yaml") + ":4:"), e.getMessage());
        assertTrue(e.getMessage().contains("lr 0.1 there, 0.05 here"), e.getMessage());
        assertTrue(e.getMessage().contains(old.dir().path().toString()), e.getMessage());
        assertEquals(RunState.COMPLETED, old.dir().status().state(), "the old run is left as it was");
    }
}
