package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.gridrun.reports.GridReport;
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

    @Option(names = "--watch", description = "Keep the report alive while the grid runs (a SLURM grid, from the login "
            + "node): every --every seconds, ingest the run directories and rewrite the site, its open pages reloading; "
            + "stop with a final report once no experiment is queued or running.")
    boolean watch;

    @Option(names = "--every", paramLabel = "SECONDS", defaultValue = "" + LiveReport.DEFAULT_SECONDS,
            description = "With --watch: seconds between rewrites (default: ${DEFAULT-VALUE}).")
    int every;

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
            if (watch) {
                watch(workspace, store, grid);
            }
            new ReportWriter(workspace, store).write(grid, run, !noExperimentFigures, spec.commandLine().getOut());
        }
        return 0;
    }

    /** Rewrites the live report until nothing of {@code grid} is queued or running (vanished jobs: KILLED). */
    private void watch(Workspace workspace, ResultsStore store, String grid) {
        if (every < 1) {
            throw new UserInputException("--every must be at least 1 second, found " + every);
        }
        PrintWriter out = spec.commandLine().getOut();
        while (true) {
            Plans.reconcile(workspace, store, grid, Clusters.slurmIfAnswering(), out);
            RunDirectories.ingest(workspace, store, grid);
            long inFlight = store.experiments(grid, null).stream()
                    .filter(e -> e.state() != null && e.state().isInFlight()).count();
            if (inFlight == 0) {
                return;
            }
            GridReport.write(store, grid, run, workspace.reportDir(grid), !noExperimentFigures, every);
            out.printf("report: %s rewritten, %d experiments queued or running; next in %d s%n",
                    workspace.root().relativize(workspace.reportDir(grid)), inFlight, every);
            out.flush();
            try {
                Thread.sleep(every * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
