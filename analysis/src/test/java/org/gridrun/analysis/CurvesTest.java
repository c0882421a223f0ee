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
}
