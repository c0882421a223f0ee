package org.gridrun.jobs.cli;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunState;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.Planner;
import org.gridrun.jobs.slurm.SlurmClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run resubmit --grid G --failed}: runs again only the experiments that ended FAILED or KILLED (and, with
 * {@code --diverged}, DIVERGED), locally or on SLURM, each resuming from its checkpoint when it has one.
 */
@Command(name = "resubmit", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run again the experiments of a grid that failed or were killed (each resumes from its "
                + "checkpoint when it has one); completed, queued and running ones are left alone.")
final class ResubmitCommand implements Callable<Integer> {
    @Mixin
    GridSelection selection;

    @Option(names = "--failed", defaultValue = "true", fallbackValue = "true",
            description = "Rerun FAILED and KILLED experiments (the default).")
    boolean failed;

    @Option(names = "--diverged", description = "Also rerun DIVERGED experiments (a deterministic config diverges "
            + "again unless something changed, such as the trainer).")
    boolean diverged;

    @Mixin
    ExecutionOptions execution;

    @Mixin
    CommonOptions common;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        execution.validate();
        Set<RunState> states = EnumSet.noneOf(RunState.class);
        if (failed) {
            states.add(RunState.FAILED);
            states.add(RunState.KILLED);
        }
        if (diverged) {
            states.add(RunState.DIVERGED);
        }
        Workspace workspace = common.workspace();
        GridFile file = selection.load(workspace);
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            SlurmClient slurm = execution.slurm();
            Plans.reconcile(workspace, store, file.name(), slurm, spec.commandLine().getOut());
            Plan plan = new Planner(workspace, store).plan(file, selection.runs()).rerunning(states);
            return execution.execute(workspace, store, file, plan, slurm, spec.commandLine().getOut());
        }
    }
}
