package org.gridrun.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.analysis.CurveBand;
import org.gridrun.analysis.SeedSummary;
import org.gridrun.engine.run.MetricRecord;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/** Figures: a diverged line never sets the axis, and losses and variances spanning a decade go log. */
class FigureScaleTest {
    /** Healthy losses from 2.3 down to 0.4; the diverged group's loss climbs to 2e8 after step 4. */
    private static List<CurveBand> band(double... means) {
        List<CurveBand> band = new ArrayList<>();
        for (int i = 0; i < means.length; i++) {
            band.add(new CurveBand(10L * (i + 1), SeedSummary.of(new double[] {means[i], means[i]})));
        }
        return band;
    }

    @Test
    void twoSeedsDrawNoBandThreeDo() {
        List<CurveBand> two = band(1, 2);
        List<CurveBand> three = List.of(new CurveBand(10, SeedSummary.of(new double[] {1, 2, 3})),
                new CurveBand(20, SeedSummary.of(new double[] {2, 3, 4})));
        XYChart chart = BandFigure.of("loss", "t", List.of(new BandFigure.Line("two", two, false),
                new BandFigure.Line("three", three, false)));
        assertFalse(chart.getSeriesMap().containsKey("two (95% CI)"));
        assertTrue(chart.getSeriesMap().containsKey("three (95% CI)"));
    }

    private static double largest(XYChart chart) {
        return chart.getSeriesMap().values().stream().flatMapToDouble(s -> java.util.Arrays.stream(s.getYData()))
                .max().orElseThrow();
    }

    @Test
    void aDivergedLineStopsInsideTheOthersRangeAndIsMarked() {
        XYChart chart = BandFigure.of("loss", "t", List.of(
                new BandFigure.Line("none", band(2.3, 1.2, 0.8, 0.5, 0.4), false),
                new BandFigure.Line("qsgd 2 bits", band(2.3, 1.9, 40, 3e4, 2e8), true)));
        assertTrue(largest(chart) <= 2.3 * 1.05, "the diverged line rescaled the figure: " + largest(chart));
        XYSeries mark = chart.getSeriesMap().get("qsgd 2 bits — " + DivergedMark.LABEL);
        assertEquals(20.0, mark.getXData()[0], "the mark sits at its last point inside the range");
        assertEquals(1.9, mark.getYData()[0], 1e-12);
        assertFalse(chart.getStyler().isYAxisLogarithmic(), "2.3/0.4 is less than a decade");
    }

    @Test
    void withoutTheDivergedFlagEveryLineSetsTheAxis() {
        XYChart chart = BandFigure.of("loss", "t", List.of(
                new BandFigure.Line("none", band(2.3, 0.4), false),
                new BandFigure.Line("qsgd", band(2.3, 2e8), false)));
        assertEquals(2e8, largest(chart), "the oracle of the test above: this line would rescale");
        assertTrue(chart.getStyler().isYAxisLogarithmic());
    }

    @Test
    void lossesAndVariancesSpanningMoreThanADecadeGoLogAccuracyDoesNot() {
        assertTrue(YScale.of("est_var", new double[] {5e-6, 3e-4}).log());
        assertTrue(YScale.of("loss", new double[] {0.05, 2.3}).log());
        assertFalse(YScale.of("loss", new double[] {0.3, 2.3}).log());
        assertFalse(YScale.of("Vacc", new double[] {0.01, 0.85}).log());
        assertFalse(YScale.of("loss", new double[] {-1, 2.3}).log(), "a log axis needs positive values");
    }

    @Test
    void anExperimentThatDivergedEndsInAMarkAtItsLastFiniteValue() {
        List<MetricRecord> series = List.of(new MetricRecord("loss", 10, 2.3, 0), new MetricRecord("loss", 20, 9e5, 0),
                new MetricRecord("loss", 30, Double.NaN, 0));
        XYChart chart = CurveFigure.of("loss", series, true);
        XYSeries mark = chart.getSeriesMap().get("loss — " + DivergedMark.LABEL);
        assertEquals(20.0, mark.getXData()[0]);
        assertEquals(9e5, mark.getYData()[0]);
        assertTrue(chart.getStyler().isYAxisLogarithmic());
        assertEquals(1, CurveFigure.of("loss", series.subList(0, 2), false).getSeriesMap().size(), "no mark");
    }
}
