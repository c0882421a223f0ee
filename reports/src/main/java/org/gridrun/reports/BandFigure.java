package org.gridrun.reports;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import org.gridrun.analysis.CurveBand;
import org.gridrun.analysis.SeedSummary;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A comparison figure: per seed group, the mean over seeds of one metric against the step, inside a translucent
 * band of its 95% t-interval (drawn as a filled polygon: the upper ends forward, the lower ends back).
 *
 * <p>Where a step has a single seed the band has no width there. Losses (metric names containing {@code loss}) are
 * drawn on a log axis when every value is positive, so a method far behind does not flatten the others.
 */
final class BandFigure {
    static final int WIDTH = 800;
    static final int HEIGHT = 500;
    /** Height added per legend entry: the legend sits under the plot, one group per row, so long labels fit. */
    static final int LEGEND_ROW = 18;
    private static final int BAND_ALPHA = 56;
    /** Line styles taken in turn once the palette's colours are used up, so no two groups look the same. */
    private static final BasicStroke[] STROKES = {SeriesLines.SOLID, SeriesLines.DASH_DASH, SeriesLines.DOT_DOT,
        SeriesLines.DASH_DOT};

    /**
     * One line of the figure.
     *
     * @param label the group's label (the legend entry)
     * @param band  the group's mean and interval per step
     */
    record Line(String label, List<CurveBand> band) {
    }

    private BandFigure() {
    }

    /** The chart of {@code lines}, or null when none has a point. */
    static XYChart of(String metric, String title, List<Line> lines) {
        List<Line> drawn = lines.stream().filter(l -> !l.band().isEmpty()).toList();
        if (drawn.isEmpty()) {
            return null;
        }
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT + LEGEND_ROW * drawn.size()).title(title)
                .xAxisTitle("iteration").yAxisTitle(metric).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        // beside the plot, a legend of many long group labels squeezes the plot to nothing: put it underneath
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        String lower = metric.toLowerCase(java.util.Locale.ROOT);
        chart.getStyler().setYAxisLogarithmic((lower.contains("loss") || lower.endsWith("ppl"))
                && drawn.stream().allMatch(BandFigure::positive));
        Color[] palette = chart.getStyler().getTheme().getSeriesColors();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < drawn.size(); i++) {
            Line line = drawn.get(i);
            Color color = palette[i % palette.length];
            String name = unique(line.label(), names);
            addBand(chart, name, line.band(), color);
            XYSeries mean = chart.addSeries(name, steps(line.band()),
                    line.band().stream().mapToDouble(b -> b.summary().mean()).toArray());
            mean.setMarker(line.band().size() == 1 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
            mean.setLineColor(color);
            mean.setLineStyle(STROKES[i / palette.length % STROKES.length]);
            mean.setMarkerColor(color);
        }
        return chart;
    }

    private static void addBand(XYChart chart, String name, List<CurveBand> band, Color color) {
        if (band.stream().noneMatch(b -> Double.isFinite(b.summary().halfWidth95()))) {
            return;
        }
        int n = band.size();
        double[] x = new double[2 * n];
        double[] y = new double[2 * n];
        for (int i = 0; i < n; i++) {
            CurveBand b = band.get(i);
            CurveBand back = band.get(n - 1 - i);
            x[i] = b.step();
            y[i] = upper(b.summary());
            x[n + i] = back.step();
            y[n + i] = lower(back.summary());
        }
        XYSeries area = chart.addSeries(name + " (95% CI)", x, y);
        area.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.PolygonArea);
        Color fill = new Color(color.getRed(), color.getGreen(), color.getBlue(), BAND_ALPHA);
        area.setFillColor(fill);
        area.setLineColor(fill);
        area.setMarker(SeriesMarkers.NONE);
        area.setShowInLegend(false);
    }

    private static double upper(SeedSummary s) {
        return Double.isFinite(s.halfWidth95()) ? s.upper95() : s.mean();
    }

    private static double lower(SeedSummary s) {
        return Double.isFinite(s.halfWidth95()) ? s.lower95() : s.mean();
    }

    private static boolean positive(Line line) {
        return line.band().stream().allMatch(b -> lower(b.summary()) > 0);
    }

    private static String unique(String label, List<String> names) {
        String name = label;
        for (int i = 2; names.contains(name); i++) {
            name = label + " (" + i + ")";
        }
        names.add(name);
        return name;
    }

    private static double[] steps(List<CurveBand> band) {
        return band.stream().mapToDouble(CurveBand::step).toArray();
    }
}
