package org.gridrun.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.Curves;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.SeedGroup;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.RunState;
import org.knowm.xchart.XYChart;

/**
 * Writes the comparison of the seed groups on one metric: {@code compare/<metric>.html}, {@code .csv}, {@code .tex}
 * and the figure {@code compare/<metric>.png|svg} (mean ± 95% CI band per group, see {@link BandFigure}).
 */
final class CompareWriter {
    static final String DIR = "compare";

    private final ResultsStore store;
    private final SiteFiles files;
    private final String grid;

    CompareWriter(ResultsStore store, SiteFiles files, String grid) {
        this.store = store;
        this.files = files;
        this.grid = grid;
    }

    /** Writes the comparison of {@code groups} on {@code metric} under the name {@code slug}; true when drawn. */
    boolean write(String metric, String slug, List<SeedGroup> groups, Map<String, ExperimentSummary> byId) {
        GroupComparison comparison = GroupComparison.of(metric, groups, byId);
        List<BandFigure.Line> lines = new ArrayList<>();
        for (GroupComparison.Row row : comparison.rows()) {
            List<List<MetricRecord>> series = store.nonEmptySeries(row.group().experiments(), metric);
            lines.add(new BandFigure.Line(row.group().label(), Curves.bandOverSeeds(series),
                    diverged(row.group(), series)));
        }
        XYChart chart = BandFigure.of(metric, grid + " — " + metric, lines);
        if (chart != null) {
            files.figure(chart, DIR, slug);
        }
        files.text(DIR + "/" + slug + ".html", ComparePage.html(grid, comparison, slug, chart != null));
        files.text(DIR + "/" + slug + ".csv", ComparePage.csv(comparison));
        files.text(DIR + "/" + slug + ".tex", ComparePage.latex(comparison));
        return chart != null;
    }

    /** Whether one of {@code group}'s runs is DIVERGED or recorded a non-finite value in {@code series}. */
    static boolean diverged(SeedGroup group, List<List<MetricRecord>> series) {
        return group.experiments().stream().anyMatch(e -> e.state() == RunState.DIVERGED)
                || series.stream().flatMap(List::stream).anyMatch(r -> !Double.isFinite(r.value()));
    }
}
