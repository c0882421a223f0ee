package org.gridrun.reports;

import java.awt.Color;
import java.util.List;
import org.gridrun.engine.run.MetricRecord;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The small figure of one metric of one experiment on its page: the recorded values against the step.
 *
 * <p>Non-finite values (a diverged loss) cannot be drawn and are left out; a series without a finite value has no
 * figure. A diverged run's curve ends in a cross marked DIVERGED at its last finite point; losses and variances that
 * span more than a decade get a log axis ({@link YScale}).
 */
final class CurveFigure {
    static final int WIDTH = 480;
    static final int HEIGHT = 300;

    private CurveFigure() {
    }

    /** The chart of {@code series}, or null when it has no finite value; {@code diverged}: the run diverged. */
    static XYChart of(String metric, List<MetricRecord> series, boolean diverged) {
        List<MetricRecord> finite = series.stream().filter(r -> Double.isFinite(r.value())).toList();
        if (finite.isEmpty()) {
            return null;
        }
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(metric).xAxisTitle("iteration")
                .yAxisTitle(metric).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendVisible(false);
        YScale.of(metric, finite.stream().mapToDouble(MetricRecord::value).toArray()).apply(chart);
        XYSeries line = chart.addSeries(metric, finite.stream().mapToDouble(MetricRecord::step).toArray(),
                finite.stream().mapToDouble(MetricRecord::value).toArray());
        line.setMarker(finite.size() == 1 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
        if (diverged || finite.size() < series.size()) {
            MetricRecord last = finite.get(finite.size() - 1);
            DivergedMark.add(chart, metric, last.step(), last.value(), line.getLineColor());
        }
        return chart;
    }
}
