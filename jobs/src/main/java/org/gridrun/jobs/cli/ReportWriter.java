package org.gridrun.jobs.cli;

import java.nio.file.Path;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.jobs.Workspace;
import org.gridrun.reports.GridReport;

/**
 * Writes the report site of one grid, {@code reports/<grid>/index.html}, from the store.
 */
final class ReportWriter {
    private final Workspace workspace;
    private final ResultsStore store;

    ReportWriter(Workspace workspace, ResultsStore store) {
        this.workspace = workspace;
        this.store = store;
    }

    /** Writes the report and returns the path of its index page. */
    Path write(String grid) {
        Path dir = workspace.reportDir(grid);
        GridReport.write(store, grid, null, dir);
        return dir.resolve("index.html");
    }
}
