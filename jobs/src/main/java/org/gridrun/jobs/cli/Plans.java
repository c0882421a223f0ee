package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import java.util.List;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.jobs.Reconciler;
import org.gridrun.jobs.Workspace;
import org.gridrun.jobs.slurm.SlurmClient;

/** Steps every command that looks at a grid's experiments takes first. */
final class Plans {
    private Plans() {
    }

    /**
     * Brings the store up to date with the grid's run directories and marks KILLED the experiments whose job is
     * gone, saying so.
     */
    static void reconcile(Workspace workspace, ResultsStore store, String grid, SlurmClient slurm, PrintWriter out) {
        var dirs = RunDirectories.of(workspace, grid);
        Reconciler reconciler = new Reconciler(store, slurm);
        List<Reconciler.Gone> gone = reconciler.reconcile(dirs);
        for (Reconciler.Gone g : gone) {
            out.println("KILLED " + workspace.root().relativize(g.dir().path()) + ": " + g.reason());
        }
        for (var e : reconciler.reconcileUnstarted(store.experiments(grid, null))) {
            out.println("KILLED " + e.name() + ": its SLURM job left the queue before it started");
        }
        out.flush();
    }
}
