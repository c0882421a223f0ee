package org.gridrun.jobs.cli;

import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run report --grid G}: brings the store up to date with the grid's run directories and writes
 * {@code reports/<grid>/index.html} with its figures.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write the HTML report of a grid (reports/GRID/index.html, figures as PNG and SVG).")
final class ReportCommand implements Callable<Integer> {
    @Option(names = {"-g", "--grid"}, paramLabel = "NAME", required = true, description = "The grid to report.")
    String grid;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Workspace workspace = common.workspace();
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            int dirs = RunDirectories.ingest(workspace, store, grid);
            if (dirs == 0 && store.experiments(grid, null).isEmpty()) {
                throw new UserInputException("grid '" + grid + "' has no results: nothing under "
                        + workspace.runsDir().resolve(grid) + " nor in the store " + workspace.database()
                        + "; run grid-run --grid " + grid + " first");
            }
            new ReportWriter(workspace, store).write(grid, spec.commandLine().getOut());
        }
        return 0;
    }
}
