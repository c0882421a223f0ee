package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import org.gridrun.analysis.OwnerOnly;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.UserInputException;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.local.PoolSize;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.slurm.ClusterArgs;
import org.gridrun.jobs.slurm.SlurmClient;
import picocli.CommandLine.Option;

/** Where and how planned experiments run: the options of {@code grid-run} and {@code grid-run resubmit}. */
public final class ExecutionOptions {
    /** Where experiments run. */
    enum Cluster { local, slurm }

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
                    + "${sys:gridrun.cores}; 2 a GPU where every experiment trains on GPUs).")
    Integer jobs;

    @Option(names = "--report-every", paramLabel = "SECONDS", defaultValue = "" + LiveReport.DEFAULT_SECONDS,
            description = "Local runs: rewrite reports/GRID/ every SECONDS while the grid runs, its open pages "
                    + "reloading at the same interval (default: ${DEFAULT-VALUE}; 0: only at the end).")
    int reportEvery;

    @Option(names = "--dry-run",
            description = "Show what would run and where, and write nothing.")
    boolean dryRun;

    /** Checks the combination of options before anything is read. */
    void validate() {
        if (cluster == Cluster.local && (clusterArgs != null || submit || prefix != null)) {
            throw new UserInputException("--cluster-args, --submit and --prefix go with --cluster slurm");
        }
        if (reportEvery < 0) {
            throw new UserInputException("--report-every must be 0 or more seconds, found " + reportEvery);
        }
        if (jobs != null && jobs < 1) {
            throw new UserInputException("--jobs must be at least 1, found " + jobs);
        }
        ClusterArgs.parse(clusterArgs);
    }

    /** The SLURM cluster to ask about jobs: null when none answers; fails when --submit needs one. */
    SlurmClient slurm() {
        SlurmClient slurm = Clusters.slurmIfAnswering();
        if (cluster == Cluster.slurm && submit && slurm == null) {
            throw new UserInputException("--submit: no SLURM answers on this machine (sinfo failed); leave out "
                    + "--submit to only write the scripts, or start one with scripts/slurm-local.sh start");
        }
        return slurm;
    }

    /**
     * Runs what {@code plan} marks to run where these options say, creating {@code runs/} readable by its owner only
     * when it is new; the exit code.
     */
    int execute(Workspace workspace, ResultsStore store, GridFile file, Plan plan, SlurmClient slurm,
                PrintWriter out) {
        if (!dryRun) {
            OwnerOnly.createDirectories(workspace.runsDir());
        }
        if (cluster == Cluster.slurm) {
            return new SlurmSession(workspace, store, slurm, ClusterArgs.parse(clusterArgs), submit, out)
                    .run(file, plan, prefix, dryRun);
        }
        GridSession session = new GridSession(workspace, store, out);
        if (dryRun) {
            return session.dryRun(plan);
        }
        PoolSize pool = jobs != null ? new PoolSize(jobs, null)
                : PoolSize.of(plan.toRun(), Runtime.getRuntime().availableProcessors());
        return session.run(plan, pool, reportEvery);
    }
}
