package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.backend.Backends;
import org.gridrun.engine.run.RunState;
import org.gridrun.grids.GridFile;
import org.gridrun.grids.SlurmSpec;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.local.JobLauncher;
import org.gridrun.jobs.plan.Plan;
import org.gridrun.jobs.plan.PlannedExperiment;
import org.gridrun.jobs.slurm.ClusterArgs;
import org.gridrun.jobs.slurm.SlurmClient;
import org.gridrun.jobs.slurm.SlurmSubmitter;

/**
 * One {@code grid-run --grid G --cluster slurm}: per run, stage its experiments, write its task scripts and sbatch
 * files, and with {@code --submit} submit them, each run's arrays waiting ({@code afterok}) for the jobs of the runs
 * its {@code after:} names.
 */
final class SlurmSession {
    private final Workspace workspace;
    private final ResultsStore store;
    private final SlurmClient client;
    private final ClusterArgs args;
    private final boolean submit;
    private final PrintWriter out;

    /**
     * @param client the cluster (its limits, its queue), or null when none answers
     * @param submit whether to submit the arrays, else only write them
     */
    SlurmSession(Workspace workspace, ResultsStore store, SlurmClient client, ClusterArgs args, boolean submit,
                 PrintWriter out) {
        this.workspace = workspace;
        this.store = store;
        this.client = client;
        this.args = args;
        this.submit = submit;
        this.out = out;
    }

    int run(GridFile file, Plan plan, String prefix, boolean dryRun) {
        List<PlannedExperiment> toRun = plan.toRun();
        GridSession.header(out, plan, "");
        if (toRun.isEmpty()) {
            out.println("nothing to submit");
            out.flush();
            return 0;
        }
        Map<String, List<PlannedExperiment>> byRun = new LinkedHashMap<>();
        toRun.forEach(e -> byRun.computeIfAbsent(e.record().run(), r -> new ArrayList<>()).add(e));
        if (dryRun) {
            byRun.forEach((run, experiments) -> out.printf(Locale.ROOT, "run %s: would write %d task scripts for %d "
                    + "experiments%n", run, args.scripts() == 0 ? experiments.size()
                    : Math.min(args.scripts(), experiments.size()), experiments.size()));
            out.println("dry run: nothing was written");
            out.flush();
            return 0;
        }
        SlurmSubmitter submitter = new SlurmSubmitter(workspace, store, client, args, Version.number());
        Map<String, String> arrayOf = new HashMap<>();
        Map<String, StoredExperiment> stored = new HashMap<>();
        store.experiments(plan.grid(), null).forEach(e -> stored.put(e.id(), e));
        boolean complete = true;
        for (Map.Entry<String, List<PlannedExperiment>> entry : byRun.entrySet()) {
            String run = entry.getKey();
            List<String> after = prerequisiteJobs(plan, entry.getValue(), arrayOf, stored);
            String base = prefix != null ? (byRun.size() > 1 ? prefix + "_" + run : prefix) : plan.grid() + "_" + run;
            SlurmSubmitter.Result result = submitter.write(plan.grid(), run, base, entry.getValue(),
                    file.slurm(run), after, submit);
            for (PlannedExperiment e : entry.getValue()) {
                if (!result.jobIds().isEmpty()) {
                    arrayOf.put(e.record().id(), result.jobIds().get(0));
                }
            }
            report(run, entry.getValue().size(), result, after);
            gpuNote(entry.getValue(), file.slurm(run));
            complete &= result.notSubmitted().isEmpty();
        }
        if (submit) {
            out.println("follow them with: grid-run status --grid " + plan.grid());
        }
        out.flush();
        return complete ? 0 : ErrorHandler.FAILURE;
    }

    /** The jobs the experiments wait for: arrays submitted just now, or tasks still in the queue from before. */
    private static List<String> prerequisiteJobs(Plan plan, List<PlannedExperiment> experiments,
                                                 Map<String, String> arrayOf, Map<String, StoredExperiment> stored) {
        Set<String> jobs = new LinkedHashSet<>();
        for (PlannedExperiment e : experiments) {
            for (PlannedExperiment p : plan.graph().prerequisites(e)) {
                String id = p.record().id();
                if (arrayOf.containsKey(id)) {
                    jobs.add(arrayOf.get(id));
                } else if (p.known() != null && p.known().isInFlight() && stored.containsKey(id)
                        && stored.get(id).job() != null && stored.get(id).job().startsWith("slurm:")) {
                    jobs.add(stored.get(id).job().substring("slurm:".length()));
                }
            }
        }
        return List.copyOf(jobs);
    }

    /**
     * Where the run's jobs ask SLURM for no GPU (it then gives them none): a warning for experiments on
     * {@code backend: cuda}, which will fail there, else a note for those on {@code auto}, which will train on the
     * nodes' CPUs.
     */
    private void gpuNote(List<PlannedExperiment> experiments, SlurmSpec spec) {
        if (spec.asksForGpus()) {
            return;
        }
        Map<String, Long> byBackend = new HashMap<>();
        experiments.forEach(e -> byBackend.merge(String.valueOf(e.record().config().getOrDefault("backend",
                Backends.AUTO)), 1L, Long::sum));
        long cuda = byBackend.getOrDefault("cuda", 0L);
        long auto = byBackend.getOrDefault(Backends.AUTO, 0L);
        if (cuda > 0) {
            out.printf(Locale.ROOT, "  warning: %d experiment%s on backend: cuda, but the grid's slurm: block asks for "
                    + "no GPU (gres: gpu:1), so SLURM gives %s none and %s will fail%n", cuda, cuda == 1 ? "" : "s",
                    cuda == 1 ? "it" : "them", cuda == 1 ? "it" : "they");
        } else if (auto > 0) {
            out.printf(Locale.ROOT, "  note: the grid's slurm: block asks for no GPU (gres: gpu:1), so backend: auto "
                    + "trains on the nodes' CPUs%n");
        }
    }

    private void report(String run, int experiments, SlurmSubmitter.Result r, List<String> after) {
        String first = "jobs/" + r.scriptPrefix() + "_0.sh";
        out.printf(Locale.ROOT, "run %s: %d experiments in %d task script%s (%s%s)%n", run, experiments, r.scripts(),
                r.scripts() == 1 ? "" : "s", first, r.scripts() > 1 ? " … _" + (r.scripts() - 1) + ".sh" : "");
        for (int i = 0; i < r.sbatchFiles().size(); i++) {
            String sbatch = workspace.root().relativize(r.sbatchFiles().get(i)).toString();
            if (i < r.jobIds().size()) {
                out.printf("  submitted %s as array job %s%s%n", sbatch, r.jobIds().get(i),
                        after.isEmpty() ? "" : ", after " + String.join(", ", after));
            } else if (!submit) {
                out.printf("  submit with: sbatch %s%s%n", after.isEmpty() ? "" : "--dependency=afterok:<job ids of "
                        + "the runs it waits for> ", sbatch);
            }
        }
        if (!r.notSubmitted().isEmpty()) {
            out.println("  " + r.notSubmitted());
        }
    }
}
