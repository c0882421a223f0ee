package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.train.Headline;
import org.gridrun.jobs.Workspace;
import org.gridrun.reports.LogTail;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run status}: counts per state and every experiment's state, with the log tail of failed ones.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show where a grid stands: experiments per state, and the log tail of the failed ones.")
final class StatusCommand implements Callable<Integer> {
    private static final int LOG_TAIL_LINES = 5;

    @Option(names = {"-g", "--grid"}, paramLabel = "NAME",
            description = "The grid, by name or as a path to its YAML file (default: every grid with run "
                    + "directories under runs/).")
    String grid;

    @Option(names = {"-r", "--run"}, paramLabel = "NAME", description = "Only this named run of the grid.")
    String run;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Workspace workspace = common.workspace();
        PrintWriter out = spec.commandLine().getOut();
        List<String> grids = grid == null ? RunDirectories.grids(workspace) : List.of(GridNames.of(grid, workspace));
        if (grids.isEmpty()) {
            out.println("no runs yet under " + workspace.runsDir());
            return 0;
        }
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            var slurm = Clusters.slurmIfAnswering();
            for (String name : grids) {
                Plans.reconcile(workspace, store, name, slurm, out);
                RunDirectories.ingest(workspace, store, name);
                print(out, store, name);
            }
        }
        out.flush();
        return 0;
    }

    private void print(PrintWriter out, ResultsStore store, String name) {
        Map<RunState, Integer> counts = store.stateCounts(name, run);
        out.printf("grid %s: %s%n", name, counts.isEmpty() ? "no experiments" : counts.toString()
                .replaceAll("[{}]", "").replace("=", " "));
        List<StoredExperiment> experiments = store.experiments(name, run);
        String builds = CodeVersions.of(store, experiments);
        if (!builds.isEmpty()) {
            out.println("  built from " + builds);
        }
        for (StoredExperiment e : experiments) {
            String accuracy = store.lastHeadline(e.id()).map(v -> (v.headline() == Headline.PERPLEXITY ? "ppl " : "")
                    + v.headline().format(v.value())).orElse("-");
            out.printf(Locale.ROOT, "  %-9s %-8s %s%s%n", e.state(), accuracy, e.name(),
                    e.state() != null && e.state().isInFlight() && e.job() != null ? "  [" + e.job() + "]" : "");
            if (e.state() == RunState.FAILED || e.state() == RunState.DIVERGED || e.state() == RunState.KILLED) {
                out.println("            " + (e.detail() == null ? "" : e.detail()));
                LogTail.read(e.runDir().resolve("log"), LOG_TAIL_LINES).forEach(l -> out.println("            | " + l));
            }
        }
    }
}
