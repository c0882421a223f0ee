package org.gridrun.jobs.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoreNetwork;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.Planner;
import org.gridrun.jobs.plan.TrainerKeySchema;
import org.gridrun.jobs.slurm.SlurmClient;
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
        subcommands = {TrainCommand.class, StatusCommand.class, CancelCommand.class, ResubmitCommand.class,
                PlanCommand.class, ReportCommand.class, ExpandCommand.class, CompressCommand.class, BenchCommand.class,
                DbCommand.class, FiguresCommand.class,
                ListCommand.class,
                CommandLine.HelpCommand.class})
public final class GridRun implements Callable<Integer> {

    @Option(names = {"-g", "--grid"}, paramLabel = "NAME",
            description = "Grid to run: grids/NAME.yaml under the working directory, or a path to a YAML file.")
    String grid;

    @Option(names = {"-r", "--run"}, paramLabel = "NAME",
            description = "A named run inside the grid file (default: every run in the file); the runs it waits "
                    + "for (after:) are planned with it.")
    String run;

    @Mixin
    ExecutionOptions execution;

    @Mixin
    CommonOptions common;

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and the tests. */
    public static CommandLine commandLine() {
        StoreNetwork.loopbackByDefault();
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
        execution.validate();
        Workspace workspace = common.workspace();
        GridFile file = GridFile.load(GridFile.resolve(grid, workspace.gridsDir()), new TrainerKeySchema());
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            SlurmClient slurm = execution.slurm();
            Plans.reconcile(workspace, store, file.name(), slurm, spec.commandLine().getOut());
            Plan plan = new Planner(workspace, store).plan(file, run == null ? null : List.of(run));
            return execution.execute(workspace, store, file, plan, slurm, spec.commandLine().getOut());
        }
    }
}
