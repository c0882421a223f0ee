package org.gridrun.jobs.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.engine.run.RunDir;
import org.gridrun.jobs.Workspace;

/**
 * Finds the run directories of a grid on disk and brings the store up to date with them.
 *
 * <p>Run directories are the truth a job leaves behind; the store catches up by ingesting them, which is
 * idempotent.
 */
final class RunDirectories {
    private RunDirectories() {
    }

    /** The grids that have run directories under {@code runs/}, by name. */
    static List<String> grids(Workspace workspace) {
        if (!Files.isDirectory(workspace.runsDir())) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(workspace.runsDir())) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + workspace.runsDir() + ": " + e.getMessage(), e);
        }
    }

    /** Every run directory of {@code grid}: {@code runs/<grid>/<run>/<experiment>/} holding an experiment. */
    static List<RunDir> of(Workspace workspace, String grid) {
        Path root = workspace.runsDir().resolve(grid);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.find(root, 3, (p, a) -> p.endsWith(RunDir.EXPERIMENT_FILE))) {
            return files.map(p -> RunDir.at(p.getParent())).sorted((a, b) -> a.path().compareTo(b.path())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root + ": " + e.getMessage(), e);
        }
    }

    /** Ingests every run directory of {@code grid}; returns how many there were. */
    static int ingest(Workspace workspace, ResultsStore store, String grid) {
        List<RunDir> dirs = of(workspace, grid);
        dirs.forEach(store::ingest);
        return dirs.size();
    }
}
