package org.gridrun.reports;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.DoubleStream;
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
 * <p>The band is drawn for groups of at least {@value #MIN_BAND_SEEDS} seeds: with two, the 95% t-interval is ±12.7
 * standard errors, far wider than the seeds' spread, and hides the means. Where a step has a single seed the band
 * has no width there. The lines that did not diverge set the value axis
 * ({@link YScale}: a log axis for losses and variances spanning more than a decade); a diverged group's line stops
 * where it leaves that range or stops being finite, and ends in a cross marked DIVERGED, so it never rescales the
 * figure for the others.
 */
final class BandFigure {
    static final int WIDTH = 800;
    static final int HEIGHT = 500;
    /** Height added per legend entry: the legend sits under the plot, one group per row, so long labels fit. */
    static final int LEGEND_ROW = 18;
    private static final int BAND_ALPHA = 56;
    static final int MIN_BAND_SEEDS = 3;
    /** Line styles taken in turn once the palette's colours are used up, so no two groups look the same. */
    private static final BasicStroke[] STROKES = {SeriesLines.SOLID, SeriesLines.DASH_DASH, SeriesLines.DOT_DOT,
        SeriesLines.DASH_DOT};

    /**
     * One line of the figure.
     *
     * @param label    the group's label (the legend entry)
     * @param band     the group's mean and interval per step
     * @param diverged whether one of the group's runs diverged
     */
    record Line(String label, List<CurveBand> band, boolean diverged) {
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
        YScale scale = scale(metric, drawn);
        scale.apply(chart);
        Color[] palette = chart.getStyler().getTheme().getSeriesColors();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < drawn.size(); i++) {
            Line line = drawn.get(i);
            Color color = palette[i % palette.length];
            String name = unique(line.label(), names);
            List<CurveBand> band = line.diverged() ? inRange(line.band(), scale) : line.band();
            if (!band.isEmpty()) {
                addBand(chart, name, band, color, scale);
                XYSeries mean = chart.addSeries(name, steps(band),
                        band.stream().mapToDouble(b -> b.summary().mean()).toArray());
                mean.setMarker(band.size() == 1 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
                mean.setLineColor(color);
                mean.setLineStyle(STROKES[i / palette.length % STROKES.length]);
                mean.setMarkerColor(color);
            }
            if (line.diverged()) {
                CurveBand last = band.isEmpty() ? line.band().get(0) : band.get(band.size() - 1);
                DivergedMark.add(chart, name, last.step(), scale.clamp(last.summary().mean()), color);
            }
        }
        return chart;
    }

    /** The axis set by the means of the lines that did not diverge (of every line when all did). */
    private static YScale scale(String metric, List<Line> lines) {
        List<Line> healthy = lines.stream().filter(l -> !l.diverged()).toList();
        DoubleStream.Builder values = DoubleStream.builder();
        for (Line line : healthy.isEmpty() ? lines : healthy) {
            line.band().forEach(b -> values.add(b.summary().mean()));
        }
        return YScale.of(metric, values.build().toArray());
    }

    /** The leading points of {@code band} whose mean lies within {@code scale}'s range. */
    private static List<CurveBand> inRange(List<CurveBand> band, YScale scale) {
        int n = 0;
        while (n < band.size() && scale.contains(band.get(n).summary().mean())) {
            n++;
        }
        return band.subList(0, n);
    }

    private static void addBand(XYChart chart, String name, List<CurveBand> band, Color color, YScale scale) {
        if (band.stream().noneMatch(b -> Double.isFinite(b.summary().halfWidth95())
                && b.summary().n() >= MIN_BAND_SEEDS)) {
            return;
        }
        int n = band.size();
        double[] x = new double[2 * n];
        double[] y = new double[2 * n];
        for (int i = 0; i < n; i++) {
            CurveBand b = band.get(i);
            CurveBand back = band.get(n - 1 - i);
            x[i] = b.step();
            y[i] = scale.clamp(upper(b.summary()));
            x[n + i] = back.step();
            y[n + i] = scale.clamp(lower(back.summary()));
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
