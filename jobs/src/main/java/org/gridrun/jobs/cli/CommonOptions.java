package org.gridrun.jobs.cli;

import java.nio.file.Path;
import org.gridrun.jobs.Workspace;
import picocli.CommandLine.Option;

/**
 * Options every {@code grid-run} command takes: where to work, where the store is, how much to say on failure.
 */
public final class CommonOptions {
    @Option(names = "--workdir", paramLabel = "DIR", defaultValue = ".",
            description = "Working directory holding grids/, runs/ and reports/ (default: the current directory).")
    Path workdir;

    @Option(names = "--db", paramLabel = "PATH",
            description = "Results store (H2 file, without .mv.db). Default: runs/gridrun under the working "
                    + "directory, or $" + Workspace.DATABASE_ENV + ".")
    Path database;

    @Option(names = {"-v", "--verbose"}, description = "Print stack traces of errors.")
    boolean verbose;

    /** The workspace these options name. */
    public Workspace workspace() {
        return Workspace.at(workdir, database);
    }
}
