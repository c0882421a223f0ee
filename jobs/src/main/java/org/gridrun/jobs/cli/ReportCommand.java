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
 * {@code grid-run report --grid G [--run R]}: brings the store up to date with the grid's run directories and writes
 * the report site {@code reports/<grid>/} (index, a page per experiment, a comparison page per metric, figures as
 * PNG and SVG, CSV and LaTeX exports).
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write the report site of a grid under reports/GRID/: index.html, experiments/, compare/ "
                + "(figures as PNG and SVG, tables as CSV, comparisons as LaTeX).")
final class ReportCommand implements Callable<Integer> {
    @Option(names = {"-g", "--grid"}, paramLabel = "NAME", required = true,
            description = "The grid to report, by name or as a path to its YAML file.")
    String grid;

    @Option(names = {"-r", "--run"}, paramLabel = "NAME",
            description = "Report only this run of the grid (default: every run).")
    String run;

    @Option(names = "--no-experiment-figures", description = "Draw no figure per experiment (their pages keep the "
            + "metric tables; comparison figures are still drawn): for grids of thousands of experiments.")
    boolean noExperimentFigures;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Workspace workspace = common.workspace();
        String grid = GridNames.of(this.grid, workspace);
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            int dirs = RunDirectories.ingest(workspace, store, grid);
            if (dirs == 0 && store.experiments(grid, null).isEmpty()) {
                throw new UserInputException("grid '" + grid + "' has no results: nothing under "
                        + workspace.runsDir().resolve(grid) + " nor in the store " + workspace.database()
                        + "; run grid-run --grid " + grid + " first");
            }
            if (run != null && store.experiments(grid, run).isEmpty()) {
                throw new UserInputException("--run: grid '" + grid + "' has no run '" + run + "' in the store "
                        + workspace.database() + "; see grid-run status --grid " + grid);
            }
            new ReportWriter(workspace, store).write(grid, run, !noExperimentFigures, spec.commandLine().getOut());
        }
        return 0;
    }
}
