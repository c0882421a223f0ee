package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.gridrun.engine.run.MetricRecord;
import org.junit.jupiter.api.Test;

class CurvesTest {
    private static MetricRecord r(long step, double value, long wall) {
        return new MetricRecord("loss", step, value, wall);
    }

    @Test
    void meansOverTheStepsAllSeriesShare() {
        List<MetricRecord> a = List.of(r(0, 1.0, 10), r(10, 0.5, 20), r(20, 0.25, 30));
        List<MetricRecord> b = List.of(r(0, 3.0, 11), r(10, 1.5, 19));
        assertEquals(List.of(r(0, 2.0, 11), r(10, 1.0, 20)), Curves.meanOverSeeds(List.of(a, b)));
    }

    @Test
    void oneSeriesIsItsOwnMean() {
        List<MetricRecord> a = List.of(r(5, 1.0, 1), r(1, 2.0, 2));
        assertEquals(List.of(r(1, 2.0, 2), r(5, 1.0, 1)), Curves.meanOverSeeds(List.of(a)));
    }

    @Test
    void noSeriesOrNoSharedStepGivesAnEmptyCurve() {
        assertEquals(List.of(), Curves.meanOverSeeds(List.of()));
        assertEquals(List.of(), Curves.meanOverSeeds(List.of(List.of(r(0, 1, 0)), List.of(r(1, 1, 0)))));
    }

    @Test
    void resamplingInterpolatesBetweenNeighboursAndKeepsExactSteps() {
        List<MetricRecord> a = List.of(r(0, 1.0, 10), r(10, 3.0, 20), r(30, 4.0, 40));
        List<MetricRecord> out = Curves.resample(a, new long[] {-5, 0, 5, 10, 20, 30, 35});
        assertEquals(List.of(0L, 5L, 10L, 20L, 30L), out.stream().map(MetricRecord::step).toList());
        assertEquals(List.of(1.0, 2.0, 3.0, 3.5, 4.0), out.stream().map(MetricRecord::value).toList());
    }

    @Test
    void seedsLoggedAtDifferentStepsGetABandOverTheirOverlap() {
        List<MetricRecord> a = List.of(r(0, 1.0, 0), r(10, 2.0, 0), r(20, 3.0, 0));
        List<MetricRecord> b = List.of(r(5, 5.0, 0), r(15, 7.0, 0), r(25, 9.0, 0));
        List<CurveBand> band = Curves.bandOverSeeds(List.of(a, b));
        // overlap [5, 20]; steps 5, 10, 15, 20; a at 5 = 1.5, b at 10 = 6, a at 15 = 2.5, b at 20 = 8
        assertEquals(List.of(5L, 10L, 15L, 20L), band.stream().map(CurveBand::step).toList());
        assertEquals((1.5 + 5.0) / 2, band.get(0).summary().mean(), 1e-12);
        assertEquals((2.0 + 6.0) / 2, band.get(1).summary().mean(), 1e-12);
        assertEquals((3.0 + 8.0) / 2, band.get(3).summary().mean(), 1e-12);
        assertEquals(SeedSummary.of(new double[] {2.5, 7.0}), band.get(2).summary());
    }

    @Test
    void emaSmoothsAndStepsOverADivergedPoint() {
        List<MetricRecord> a = List.of(r(0, 4.0, 0), r(1, 0.0, 0), r(2, Double.NaN, 0), r(3, 2.0, 0));
        List<MetricRecord> s = Curves.ema(a, 0.5);
        assertEquals(4.0, s.get(0).value());
        assertEquals(2.0, s.get(1).value());
        assertEquals(Double.NaN, s.get(2).value());
        assertEquals(2.0, s.get(3).value());
        assertEquals(a.subList(0, 2), Curves.ema(a, 1.0).subList(0, 2));
    }
}
