package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.gridrun.grids.Experiment;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.plan.TrainerKeySchema;
import org.gridrun.reports.paper.FigureSpec;
import org.gridrun.reports.paper.PaperSpec;
import org.gridrun.reports.paper.SeriesSpec;
import org.gridrun.reports.paper.SourceSpec;
import org.gridrun.reports.paper.SpecReader;
import org.gridrun.reports.paper.TableSpec;
import org.junit.jupiter.api.Test;

/**
 * Every spec in the repository's {@code figures/} parses, names runs its grid has, and every one of its series
 * matches at least one experiment of those runs, so {@code grid-run figures} after {@code grid-run --grid G} draws
 * every series.
 */
class FigureSpecsTest {
    private static final Path FIGURES = Path.of("..", "figures");
    private static final Path GRIDS = Path.of("..", "grids");

    @Test
    void everyShippedSpecRefersToRunsAndExperimentsOfItsGrid() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(FIGURES)) {
            files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "figures/*.yaml exist");
        for (Path file : files) {
            PaperSpec spec = SpecReader.load(file, file.toString());
            for (FigureSpec f : spec.figures()) {
                check(file + " figure " + f.name(), f.source(), f.series());
            }
            for (TableSpec t : spec.tables()) {
                check(file + " table " + t.name(), t.source(), t.rows());
            }
        }
    }

    private static void check(String what, SourceSpec source, List<SeriesSpec> series) {
        GridFile grid = GridFile.load(GRIDS.resolve(source.grid() + ".yaml"), new TrainerKeySchema());
        List<Experiment> experiments = new ArrayList<>();
        for (String run : source.runs()) {
            assertTrue(grid.runNames().contains(run), what + ": grid " + source.grid() + " has no run " + run);
            experiments.addAll(grid.expand(run));
        }
        for (SeriesSpec s : series) {
            assertTrue(experiments.stream().anyMatch(e -> s.matches(e.params(), Map.of())),
                    what + ": series " + s.label() + " matches no experiment of " + source);
        }
    }
}
