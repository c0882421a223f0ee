package org.gridrun.reports;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.RunSummary;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.MetricRecord;
import org.gridrun.engine.run.RunState;
import org.knowm.xchart.XYChart;

/**
 * Writes one experiment's page, {@code experiments/<name>.html}, and its figures,
 * {@code experiments/<name>/<metric>.png|svg}, and returns the experiment's summary for the index.
 *
 * <p>When the page comes out exactly as the previous report wrote it (same states, same metric summaries) and its
 * figures are there, the figures are kept rather than drawn again, so re-running the report over a large grid redraws
 * only the experiments that moved. Drawing can be switched off for grids so large that a figure per metric per
 * experiment costs too much; the pages then keep their metric tables and the comparisons keep their figures.
 */
final class ExperimentWriter {
    static final String DIR = "experiments";

    private final ResultsStore store;
    private final SiteFiles files;
    private final Slugs metricSlugs;
    private final boolean draw;

    /** A writer into {@code files}; {@code draw} false leaves out the figures. */
    ExperimentWriter(ResultsStore store, SiteFiles files, Slugs metricSlugs, boolean draw) {
        this.store = store;
        this.files = files;
        this.metricSlugs = metricSlugs;
        this.draw = draw;
    }

    /** Writes the page of {@code experiment} as {@code slug}.html; returns its summary. */
    ExperimentSummary write(StoredExperiment experiment, String slug) {
        Map<String, RunSummary> summaries = new TreeMap<>();
        Map<String, XYChart> charts = new LinkedHashMap<>();
        Map<String, String> figures = new LinkedHashMap<>();
        for (String metric : new TreeSet<>(store.latest(experiment.id()).keySet())) {
            List<MetricRecord> series = store.series(experiment.id(), metric);
            summaries.put(metric, RunSummary.of(series, ExperimentSummary.LAST_K));
            XYChart chart = draw ? CurveFigure.of(metric, series, experiment.state() == RunState.DIVERGED) : null;
            if (chart != null) {
                charts.put(metric, chart);
                figures.put(metric, slug + "/" + metricSlugs.of(metric));
            }
        }
        ExperimentSummary summary = new ExperimentSummary(experiment, slug, summaries);
        String page = ExperimentPage.render(summary, store.attempts(experiment.id()), figures);
        String pagePath = DIR + "/" + slug + ".html";
        boolean unchanged = files.holds(pagePath, page);
        String figureDir = DIR + "/" + slug;
        charts.forEach((metric, chart) -> {
            String base = metricSlugs.of(metric);
            if (!unchanged || !files.keepFigure(figureDir, base)) {
                files.figure(chart, figureDir, base);
            }
        });
        files.text(pagePath, page);
        return summary;
    }
}
