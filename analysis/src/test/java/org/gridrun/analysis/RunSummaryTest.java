package org.gridrun.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.run.MetricRecord;
import org.junit.jupiter.api.Test;

class RunSummaryTest {
    private static List<MetricRecord> series(double... values) {
        List<MetricRecord> out = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            out.add(new MetricRecord("Vacc", 100L * (i + 1), values[i], i));
        }
        return out;
    }

    @Test
    void lastExtremesAndMeanOfTheLastK() {
        RunSummary s = RunSummary.of(series(0.5, 0.9, 0.7, 0.8, 0.6), 3);
        assertEquals(5, s.count());
        assertEquals(0.6, s.last());
        assertEquals(500, s.lastStep());
        assertEquals(0.5, s.min());
        assertEquals(0.9, s.max());
        assertEquals(3, s.k());
        assertEquals((0.7 + 0.8 + 0.6) / 3, s.lastK(), 1e-12);
    }

    @Test
    void aShortSeriesAveragesWhatItHas() {
        RunSummary s = RunSummary.of(series(0.2, 0.4), 5);
        assertEquals(2, s.k());
        assertEquals(0.3, s.lastK(), 1e-12);
    }

    @Test
    void aDivergedValueIsNeverHiddenByTheExtremes() {
        RunSummary s = RunSummary.of(series(2.3, Double.NaN), 1);
        assertTrue(Double.isNaN(s.min()));
        assertTrue(Double.isNaN(s.max()));
        assertTrue(Double.isNaN(s.lastK()));
    }

    @Test
    void emptyAndBadK() {
        assertEquals(0, RunSummary.of(List.of(), 5).count());
        assertTrue(Double.isNaN(RunSummary.of(List.of(), 5).last()));
        assertThrows(IllegalArgumentException.class, () -> RunSummary.of(series(1), 0));
    }
}
