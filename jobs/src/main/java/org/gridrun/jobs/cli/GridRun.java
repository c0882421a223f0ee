package org.gridrun.jobs.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.Planner;
import org.gridrun.jobs.plan.TrainerKeySchema;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code grid-run} command: expands a grid into experiments and runs those not yet completed.
 *
 * <p>Subcommands cover what one job executes ({@code train}), where a grid stands ({@code status}), its report
 * ({@code report}) and its expansion ({@code expand}).
 */
@Command(name = "grid-run", mixinStandardHelpOptions = true, versionProvider = Version.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs an experiment grid for communication-efficient distributed training: expands "
                + "grids/NAME.yaml into experiments, runs the ones not yet completed, stores every metric and "
                + "writes the report.",
        subcommands = {TrainCommand.class, StatusCommand.class, ReportCommand.class, ExpandCommand.class,
                ListCommand.class,
                CommandLine.HelpCommand.class})
public final class GridRun implements Callable<Integer> {

    /** Where experiments run. */
    enum Cluster { local, slurm }

    @Option(names = {"-g", "--grid"}, paramLabel = "NAME",
            description = "Grid to run: grids/NAME.yaml under the working directory, or a path to a YAML file.")
    String grid;

    @Option(names = {"-r", "--run"}, paramLabel = "NAME",
            description = "A named run inside the grid file (default: every run in the file).")
    String run;

    @Option(names = "--cluster", paramLabel = "KIND", defaultValue = "local",
            description = "Where experiments run: local, a process pool on this machine (the default); slurm "
                    + "is not available in this version yet.")
    Cluster cluster;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N",
            description = "Experiments run at once by the local executor (default: the number of cores, "
                    + "${sys:gridrun.cores}).")
    Integer jobs;

    @Option(names = "--dry-run",
            description = "Show what would run and where, and write nothing.")
    boolean dryRun;

    @Mixin
    CommonOptions common;

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and the tests. */
    public static CommandLine commandLine() {
        System.setProperty("gridrun.cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        System.setProperty("java.awt.headless", "true");
        return new CommandLine(new GridRun())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(new ErrorHandler());
    }

    @Override
    public Integer call() {
        if (grid == null) {
            spec.commandLine().usage(spec.commandLine().getErr());
            throw new UserInputException("no grid given: use --grid NAME (for example --grid quickstart)");
        }
        if (cluster == Cluster.slurm) {
            throw new UserInputException("--cluster slurm is not available in this version yet; "
                    + "run with --cluster local (the default)");
        }
        int parallel = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
        if (parallel < 1) {
            throw new UserInputException("--jobs must be at least 1, found " + parallel);
        }
        Workspace workspace = common.workspace();
        GridFile file = GridFile.load(GridFile.resolve(grid, workspace.gridsDir()), new TrainerKeySchema());
        List<Experiment> experiments = run == null ? file.expandAll() : file.expand(run);
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            Plan plan = new Planner(workspace, store).plan(file, experiments);
            GridSession session = new GridSession(workspace, store, spec.commandLine().getOut());
            return dryRun ? session.dryRun(plan) : session.run(plan, parallel);
        }
    }
}
