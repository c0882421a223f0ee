package org.gridrun.reports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.Groups;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.SeedGroup;
import org.gridrun.analysis.StoredExperiment;

/**
 * Writes the report of one grid: a static HTML page and the figures of its mean curves over seeds.
 *
 * <p>{@code outDir/index.html} holds the counts per state, a table of seed groups (final test accuracy as
 * mean ± std over seeds, bits sent per step, compression ratio), a table of every experiment, and the figures
 * {@code outDir/figures/loss.{png,svg}} (training loss) and {@code outDir/figures/Vacc.{png,svg}} (test accuracy).
 * Accuracies, recorded as fractions, are shown in percent.
 *
 * <p>Experiments without metrics still appear with their state; a figure skips groups with no data, and is not
 * written when no group has any; a grid without experiments gets a page saying there are no results yet. Figures
 * are drawn in a headless JVM ({@code java.awt.headless} is set to {@code true} unless already set).
 */
public final class GridReport {
    /** The folder of the figures, relative to the output directory. */
    public static final String FIGURES_DIR = "figures";
    /** The page written into the output directory. */
    public static final String INDEX = "index.html";
    private static final List<Figures.Spec> FIGURES = List.of(new Figures.Spec("loss", "training loss", true),
            new Figures.Spec("Vacc", "test accuracy", false));

    private GridReport() {
    }

    /**
     * Writes the report of {@code grid} ({@code run} null: of every run) into {@code outDir}, creating it.
     *
     * <p>Figure files of an earlier report that have no data now are removed, so the directory matches the page.
     */
    public static ReportResult write(ResultsStore store, String grid, String run, Path outDir) {
        List<StoredExperiment> experiments = store.experiments(grid, run);
        Map<String, ExperimentFacts> facts = new LinkedHashMap<>();
        experiments.forEach(e -> facts.put(e.id(), ExperimentFacts.read(store, e)));
        List<SeedGroup> groups = Groups.bySeed(experiments);
        List<GroupRow> rows = groups.stream().map(g -> GroupRow.of(g, facts)).toList();
        Path figuresDir = createDirectories(outDir.resolve(FIGURES_DIR));
        List<Path> files = new ArrayList<>();
        List<Figures.Spec> drawn = new ArrayList<>();
        for (Figures.Spec spec : FIGURES) {
            List<Path> written = Figures.write(store, groups, spec, grid + " — " + spec.yAxis(), figuresDir);
            if (written.isEmpty()) {
                ChartFiles.remove(figuresDir, spec.metric());
            } else {
                files.addAll(written);
                drawn.add(spec);
            }
        }
        List<ExperimentFacts> all = List.copyOf(facts.values());
        ReportModel model = new ReportModel(grid, run, store.stateCounts(grid, run), all, rows,
                drawn);
        Path index = outDir.resolve(INDEX);
        writeText(index, HtmlPage.render(model));
        return new ReportResult(index, files, experiments.size(), groups.size(), TextTable.render(rows));
    }

    private static Path createDirectories(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create report directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void writeText(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
