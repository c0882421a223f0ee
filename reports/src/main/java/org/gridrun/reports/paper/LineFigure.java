package org.gridrun.reports.paper;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.List;
import org.gridrun.engine.run.MetricRecord;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A paper-style line chart: one solid line per series in its fixed colour and legend order, a log y axis when asked,
 * fixed y limits when given, and a dashed grey vertical line at each learning-rate drop.
 */
final class LineFigure {
    static final int WIDTH = 760;
    static final int HEIGHT = 440;
    private static final BasicStroke LINE = new BasicStroke(2f);
    private static final BasicStroke DASHED = new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
            10f, new float[] {6f, 4f}, 0f);

    private final FigureSpec spec;
    private final XYChart chart;
    private double low = Double.POSITIVE_INFINITY;
    private double high = Double.NEGATIVE_INFINITY;
    private int lines;

    LineFigure(FigureSpec spec) {
        this.spec = spec;
        chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title()).xAxisTitle("iteration")
                .yAxisTitle(spec.yLabel()).build();
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);   // never over the lines
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        chart.getStyler().setYAxisLogarithmic(spec.logY());
        if (spec.yLimits() != null) {
            chart.getStyler().setYAxisMin(spec.yLimits()[0]);
            chart.getStyler().setYAxisMax(spec.yLimits()[1]);
        }
    }

    /** The points of {@code curve} the axis can show: finite, and above 0 on a log axis. */
    List<MetricRecord> plottable(List<MetricRecord> curve) {
        return curve.stream().filter(r -> Double.isFinite(r.value()) && (!spec.logY() || r.value() > 0)).toList();
    }

    /** Adds the line of {@code series}; {@code curve} must be {@link #plottable} and not empty. */
    void add(SeriesSpec series, List<MetricRecord> curve) {
        double[] x = curve.stream().mapToDouble(MetricRecord::step).toArray();
        double[] y = curve.stream().mapToDouble(MetricRecord::value).toArray();
        for (double v : y) {
            low = Math.min(low, v);
            high = Math.max(high, v);
        }
        XYSeries line = chart.addSeries(series.label(), x, y);
        line.setMarker(SeriesMarkers.NONE);
        line.setLineColor(series.colour());
        line.setLineStyle(LINE);
        lines++;
    }

    /** Whether any line was added. */
    boolean hasLines() {
        return lines > 0;
    }

    /** Adds the dashed learning-rate-drop lines across the y range; call after the last {@link #add}. */
    XYChart finish(List<Long> lrDrops) {
        double bottom = spec.yLimits() != null ? spec.yLimits()[0] : low;
        double top = spec.yLimits() != null ? spec.yLimits()[1] : high;
        for (int i = 0; i < lrDrops.size(); i++) {
            double x = lrDrops.get(i);
            XYSeries drop = chart.addSeries("lr drop " + (i + 1), new double[] {x, x}, new double[] {bottom, top});
            drop.setMarker(SeriesMarkers.NONE);
            drop.setLineColor(Color.GRAY);
            drop.setLineStyle(DASHED);
            drop.setShowInLegend(false);
        }
        return chart;
    }
}
