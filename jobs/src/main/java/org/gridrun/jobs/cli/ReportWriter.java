package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.jobs.Workspace;
import org.gridrun.reports.GridReport;
import org.gridrun.reports.ReportResult;

/**
 * Writes the report site of one grid, {@code reports/<grid>/index.html}, from the store, and tells where.
 */
final class ReportWriter {
    private final Workspace workspace;
    private final ResultsStore store;

    ReportWriter(Workspace workspace, ResultsStore store) {
        this.workspace = workspace;
        this.store = store;
    }

    /** Writes the report and prints its group table and the path of its index page to {@code out}. */
    void write(String grid, PrintWriter out) {
        ReportResult result = GridReport.write(store, grid, null, workspace.reportDir(grid));
        out.print(result.table());
        out.println("report: " + workspace.root().relativize(result.index()));
        out.flush();
    }
}
