package org.gridrun.reports;

import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gridrun.analysis.Curves;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.SeedGroup;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.MetricRecord;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's figures: one line per seed group, the mean over seeds of one metric against the step.
 *
 * <p>Each figure is written as {@code <metric>.png} and {@code <metric>.svg}. Groups without data for the metric are
 * left out, and so are non-finite points (a diverged loss); a figure with no line at all is not written.
 */
final class Figures {
    static final int WIDTH = 800;
    static final int HEIGHT = 500;

    /**
     * A figure to draw: the metric (also the file base name), the y-axis title, and whether the y axis is
     * logarithmic (losses span decades, and a log axis keeps a diverging method from flattening the others).
     */
    record Spec(String metric, String yAxis, boolean logY) {
    }

    private Figures() {
    }

    /** Writes the figure of {@code spec} under {@code dir}; returns the files written, none when there is no data. */
    static List<Path> write(ResultsStore store, List<SeedGroup> groups, Spec spec, String title, Path dir) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle("iteration")
                .yAxisTitle(spec.yAxis()).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(spec.logY());
        Set<String> names = new HashSet<>();
        for (SeedGroup group : groups) {
            List<MetricRecord> curve = plottable(meanCurve(store, group, spec.metric()), spec.logY());
            if (!curve.isEmpty()) {
                XYSeries series = chart.addSeries(unique(group.label(), names), steps(curve), values(curve));
                series.setMarker(SeriesMarkers.NONE);
            }
        }
        if (names.isEmpty()) {
            return List.of();
        }
        return ChartFiles.writePngAndSvg(chart, dir, spec.metric());
    }

    private static List<MetricRecord> meanCurve(ResultsStore store, SeedGroup group, String metric) {
        List<List<MetricRecord>> series = new ArrayList<>();
        for (StoredExperiment e : group.experiments()) {
            List<MetricRecord> s = store.series(e.id(), metric);
            if (!s.isEmpty()) {
                series.add(s);
            }
        }
        return Curves.meanOverSeeds(series);
    }

    private static List<MetricRecord> plottable(List<MetricRecord> curve, boolean logY) {
        return curve.stream().filter(r -> Double.isFinite(r.value()) && (!logY || r.value() > 0)).toList();
    }

    private static String unique(String label, Set<String> names) {
        String name = label;
        for (int i = 2; !names.add(name); i++) {
            name = label + " (" + i + ")";
        }
        return name;
    }

    private static double[] steps(List<MetricRecord> curve) {
        return curve.stream().mapToDouble(MetricRecord::step).toArray();
    }

    private static double[] values(List<MetricRecord> curve) {
        return curve.stream().mapToDouble(MetricRecord::value).toArray();
    }
}
