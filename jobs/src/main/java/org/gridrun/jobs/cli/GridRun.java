package org.gridrun.jobs.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.Planner;
import org.gridrun.jobs.plan.TrainerKeySchema;
import org.gridrun.jobs.slurm.ClusterArgs;
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
            description = "Where experiments run: local, a process pool on this machine (the default); slurm, "
                    + "task scripts and an sbatch job array under jobs/ (submitted with --submit).")
    Cluster cluster;

    @Option(names = "--cluster-args", paramLabel = "N,T,P",
            description = "With slurm: at most N task scripts (default: one per experiment), at most T array tasks "
                    + "running at once (default: no limit), partition P (default: the grid's slurm: partition).")
    String clusterArgs;

    @Option(names = "--submit",
            description = "With slurm: submit the job arrays with sbatch and record their job ids.")
    boolean submit;

    @Option(names = "--prefix", paramLabel = "NAME",
            description = "With slurm: the task scripts' name, jobs/NAME_<i>.sh (default: <grid>_<run>).")
    String prefix;

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
        if (cluster == Cluster.local && (clusterArgs != null || submit || prefix != null)) {
            throw new UserInputException("--cluster-args, --submit and --prefix go with --cluster slurm");
        }
        int parallel = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
        if (parallel < 1) {
            throw new UserInputException("--jobs must be at least 1, found " + parallel);
        }
        ClusterArgs slurmArgs = ClusterArgs.parse(clusterArgs);
        Workspace workspace = common.workspace();
        GridFile file = GridFile.load(GridFile.resolve(grid, workspace.gridsDir()), new TrainerKeySchema());
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            SlurmClient slurm = Clusters.slurmIfAnswering();
            if (cluster == Cluster.slurm && submit && slurm == null) {
                throw new UserInputException("--submit: no SLURM answers on this machine (sinfo failed); leave out "
                        + "--submit to only write the scripts, or start one with scripts/slurm-local.sh start");
            }
            Plans.reconcile(workspace, store, file.name(), slurm, spec.commandLine().getOut());
            Plan plan = new Planner(workspace, store).plan(file, run == null ? null : List.of(run));
            if (cluster == Cluster.slurm) {
                return new SlurmSession(workspace, store, slurm, slurmArgs, submit, spec.commandLine().getOut())
                        .run(file, plan, prefix, dryRun);
            }
            GridSession session = new GridSession(workspace, store, spec.commandLine().getOut());
            return dryRun ? session.dryRun(plan) : session.run(plan, parallel);
        }
    }
}
