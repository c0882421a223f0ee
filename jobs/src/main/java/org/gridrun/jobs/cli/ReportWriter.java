package org.gridrun.jobs.cli;

import java.io.PrintWriter;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.jobs.Workspace;
import org.gridrun.reports.GridReport;
import org.gridrun.reports.ReportResult;

/**
 * Writes the report site of one grid, {@code reports/<grid>/}, from the store, and tells where and what changed.
 */
final class ReportWriter {
    private final Workspace workspace;
    private final ResultsStore store;

    ReportWriter(Workspace workspace, ResultsStore store) {
        this.workspace = workspace;
        this.store = store;
    }

    /** Writes the report of every run of {@code grid} with every figure, as the other {@code write} does. */
    void write(String grid, PrintWriter out) {
        write(grid, null, true, out);
    }

    /**
     * Writes the report of {@code grid} ({@code run} null: every run; {@code experimentFigures} false: no figure per
     * experiment) and prints its group table, what it wrote and the path of its index page to {@code out}.
     */
    void write(String grid, String run, boolean experimentFigures, PrintWriter out) {
        ReportResult result = GridReport.write(store, grid, run, workspace.reportDir(grid), experimentFigures);
        out.print(result.table());
        out.println("report: " + result.experiments() + " experiment pages, " + result.comparisons()
                + " comparison pages; " + result.changed() + " files written, " + result.removed().size()
                + " stale files removed");
        out.println("report: " + workspace.root().relativize(result.index()));
        out.flush();
    }
}
