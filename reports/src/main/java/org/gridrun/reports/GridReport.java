package org.gridrun.reports;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.gridrun.analysis.Groups;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.SeedGroup;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.RunState;

/**
 * Writes the report site of one grid: static pages that work offline from the file system.
 *
 * <ul>
 *   <li>{@code index.html} (+ {@code index.csv}): counts per state, the seed groups, and every experiment with every
 *       param and each metric's last value and mean of its last five, sortable and filterable in the page;</li>
 *   <li>{@code experiments/<name>.html}: config, state history, attempts, log tail, a figure per metric;</li>
 *   <li>{@code compare/<metric>.html} (+ {@code .csv}, {@code .tex}, {@code .png}, {@code .svg}): one line per seed
 *       group with its 95% band over seeds, and mean ± std per group with Welch's test against the best.</li>
 * </ul>
 *
 * <p>Every page shows how fresh the report is and which experiments run, from the site's {@code live.js}
 * ({@link LiveScript}); a report written while its grid runs makes open pages reload every few seconds, and the one
 * written when it ends stops them.
 *
 * <p>Re-running rewrites only files whose content changed and removes files an earlier report wrote that no page
 * needs now ({@link SiteFiles}); other files in the directory are never touched. Figures are drawn in a headless JVM.
 */
public final class GridReport {
    /** The page written into the output directory. */
    public static final String INDEX = "index.html";
    /** The index's table as CSV. */
    public static final String INDEX_CSV = "index.csv";

    private GridReport() {
    }

    /** Writes the report of {@code grid} ({@code run} null: of every run) into {@code outDir}, creating it. */
    public static ReportResult write(ResultsStore store, String grid, String run, Path outDir) {
        return write(store, grid, run, outDir, true);
    }

    /**
     * Writes the report as {@link #write(ResultsStore, String, String, Path)} does; {@code experimentFigures} false
     * draws no figure per experiment (their pages keep the metric tables), for grids of thousands of experiments,
     * where those figures would take most of the time. Comparison figures are always drawn.
     */
    public static ReportResult write(ResultsStore store, String grid, String run, Path outDir,
            boolean experimentFigures) {
        return write(store, grid, run, outDir, experimentFigures, 0);
    }

    /**
     * Writes the report as {@link #write(ResultsStore, String, String, Path, boolean)} does, for a grid that is
     * running when {@code refreshSeconds} is positive: open pages then reload every {@code refreshSeconds}.
     */
    public static ReportResult write(ResultsStore store, String grid, String run, Path outDir,
            boolean experimentFigures, int refreshSeconds) {
        SiteFiles files = SiteFiles.open(outDir);
        Slugs metricSlugs = new Slugs();
        List<StoredExperiment> experiments = store.experiments(grid, run);
        Slugs pages = new Slugs();
        ExperimentWriter experimentWriter = new ExperimentWriter(store, files, metricSlugs, experimentFigures);
        Map<String, ExperimentSummary> byId = new LinkedHashMap<>();
        Map<String, ExperimentFacts> facts = new LinkedHashMap<>();
        for (StoredExperiment e : experiments) {
            byId.put(e.id(), experimentWriter.write(e, pages.of(e.id(), e.name())));
            facts.put(e.id(), ExperimentFacts.read(store, e));
        }
        List<SeedGroup> groups = Groups.bySeed(experiments);
        CompareWriter compareWriter = new CompareWriter(store, files, grid);
        Map<String, String> comparisons = new LinkedHashMap<>();
        List<String> drawn = new ArrayList<>();
        TreeSet<String> metrics = new TreeSet<>();
        byId.values().forEach(s -> metrics.addAll(s.metrics().keySet()));
        for (String metric : metrics) {
            comparisons.put(metric, metricSlugs.of(metric));
            if (compareWriter.write(metric, metricSlugs.of(metric), groups, byId)) {
                drawn.add(metric);
            }
        }
        List<GroupRow> rows = groups.stream().map(g -> GroupRow.of(g, facts)).toList();
        IndexTable table = IndexTable.of(List.copyOf(byId.values()));
        Path index = files.text(INDEX, IndexPage.render(new IndexPage.Model(grid, run, store.stateCounts(grid, run),
                rows, table, comparisons, drawn)));
        files.text(INDEX_CSV, table.csv());
        files.text(LiveScript.FILE, LiveScript.render(Instant.now(),
                experiments.stream().filter(e -> e.state() == RunState.RUNNING).map(StoredExperiment::name).toList(),
                (int) experiments.stream().filter(e -> e.state() == RunState.QUEUED).count(), refreshSeconds));
        List<String> removed = files.finish();
        return new ReportResult(index, experiments.size(), groups.size(), comparisons.size(), files.changed(),
                removed, TextTable.render(rows));
    }
}
