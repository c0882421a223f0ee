package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunState;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.local.Stager;
import org.gridrun.jobs.plan.ExperimentFilter;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.PlannedExperiment;
import org.gridrun.jobs.plan.Planner;
import org.gridrun.jobs.slurm.SlurmClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code grid-run resubmit --grid G --failed}: runs again only the experiments that ended FAILED or KILLED (and, with
 * {@code --diverged}, DIVERGED), locally or on SLURM, each resuming from its checkpoint when it has one. With
 * {@code --completed}, also the completed ones, from their first step (after a fix); {@code --where KEY=VALUE} limits
 * any of these to the matching experiments.
 */
@Command(name = "resubmit", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run again the experiments of a grid that failed or were killed (each resumes from its "
                + "checkpoint when it has one); completed ones only with --completed, queued and running ones never.")
final class ResubmitCommand implements Callable<Integer> {
    @Mixin
    GridSelection selection;

    @Option(names = "--failed", defaultValue = "true", fallbackValue = "true",
            description = "Rerun FAILED and KILLED experiments (the default).")
    boolean failed;

    @Option(names = "--diverged", description = "Also rerun DIVERGED experiments (a deterministic config diverges "
            + "again unless something changed, such as the trainer).")
    boolean diverged;

    @Option(names = "--completed", description = "Also rerun COMPLETED experiments, from their first step: after a "
            + "fix to a method or the trainer. Each one's checkpoint, metrics and log move to attempt-<k>/ in its run "
            + "directory first; the store then holds the new run's results.")
    boolean completed;

    @Option(names = "--where", paramLabel = "KEY=VALUE", description = "Only the experiments whose config sets KEY "
            + "to VALUE, such as --where method=alq; repeated, values of one key are alternatives and different keys "
            + "must all hold (--where method=alq --where method=amq --where bits=3).")
    List<String> where = new ArrayList<>();

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
        if (completed) {
            states.add(RunState.COMPLETED);
        }
        Workspace workspace = common.workspace();
        GridFile file = selection.load(workspace);
        try (ResultsStore store = ResultsStore.open(workspace.database())) {
            SlurmClient slurm = execution.slurm();
            Plans.reconcile(workspace, store, file.name(), slurm, spec.commandLine().getOut());
            Plan all = new Planner(workspace, store).plan(file, selection.runs());
            Plan plan = all.rerunning(states, ExperimentFilter.parse(where, all.experiments()));
            if (!execution.dryRun) {
                archiveCompleted(plan);
            }
            return execution.execute(workspace, store, file, plan, slurm, spec.commandLine().getOut());
        }
    }

    /** Moves aside the checkpoint, metrics and log of each completed experiment the plan reruns. */
    private void archiveCompleted(Plan plan) {
        PrintWriter out = spec.commandLine().getOut();
        for (PlannedExperiment e : plan.toRun()) {
            if (e.known() == RunState.COMPLETED) {
                Path archive = Stager.archiveCompletedRun(e.dir());
                if (archive != null) {
                    out.println("  " + e.record().name() + ": completed results moved to " + archive.getFileName()
                            + "/, rerun from its first step");
                }
            }
        }
    }
}
