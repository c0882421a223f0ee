package org.gridrun.jobs.cli;

import java.util.List;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.plan.TrainerKeySchema;
import picocli.CommandLine.Option;

/** The grid and named run a command works on: {@code --grid} (required) and {@code --run}. */
public final class GridSelection {
    @Option(names = {"-g", "--grid"}, paramLabel = "NAME", required = true,
            description = "The grid: grids/NAME.yaml under the working directory, or a path to a YAML file.")
    String grid;

    @Option(names = {"-r", "--run"}, paramLabel = "NAME",
            description = "Only this named run of the grid (to run it: with the runs it waits for).")
    String run;

    /** The grid file, read and checked against the trainer's keys. */
    GridFile load(Workspace workspace) {
        return GridFile.load(GridFile.resolve(grid, workspace.gridsDir()), new TrainerKeySchema());
    }

    /** The grid's name, under which its runs and results are kept, whether {@code --grid} gave a name or a path. */
    String name(Workspace workspace) {
        return GridNames.of(grid, workspace);
    }

    /** The selected runs: null for every run of the file. */
    List<String> runs() {
        return run == null ? null : List.of(run);
    }
}
