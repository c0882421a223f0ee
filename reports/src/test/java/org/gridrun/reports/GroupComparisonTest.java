package org.gridrun.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.analysis.Groups;
import org.gridrun.analysis.RunSummary;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.analysis.WelchTest;
import org.gridrun.engine.run.MetricRecord;
import org.junit.jupiter.api.Test;

class GroupComparisonTest {
    private final Map<String, ExperimentSummary> byId = new HashMap<>();
    private final List<StoredExperiment> experiments = new ArrayList<>();

    @Test
    void lossIsBetterLowAndEachGroupIsTestedAgainstTheBest() {
        add("a", 0, 1.0);
        add("a", 1, 1.2);
        add("b", 0, 0.5);
        add("b", 1, 0.6);
        add("c", 0, 0.9);
        add("c", 1, Double.NaN);
        GroupComparison c = GroupComparison.of("loss", Groups.bySeed(experiments), byId);
        assertEquals(3, c.rows().size());
        GroupComparison.Row a = c.rows().get(0);
        GroupComparison.Row b = c.rows().get(1);
        GroupComparison.Row diverged = c.rows().get(2);
        assertTrue(b.best() && !a.best(), "lower loss is better");
        assertNull(b.vsBest());
        WelchTest expected = WelchTest.of(new double[] {1.0, 1.2}, new double[] {0.5, 0.6});
        assertEquals(expected.pValue(), a.vsBest().pValue(), 1e-15);
        assertEquals(expected.t(), a.vsBest().t(), 1e-15);
        assertArrayEquals(new double[] {0.9}, diverged.values());
        assertEquals(1, diverged.nonFinite());
        assertNull(diverged.vsBest(), "one finite seed cannot be tested");
    }

    @Test
    void accuracyIsBetterHigh() {
        assertTrue(GroupComparison.higherIsBetter("Vacc"));
        assertTrue(GroupComparison.higherIsBetter("ratio"));
        assertFalse(GroupComparison.higherIsBetter("Vloss"));
        add("a", 0, 0.9);
        add("b", 0, 0.8);
        assertTrue(GroupComparison.of("Vacc", Groups.bySeed(experiments), byId).rows().get(0).best());
    }

    /** An experiment of group {@code method} whose metric is {@code value} at every step. */
    private void add(String method, long seed, double value) {
        String id = method + seed;
        StoredExperiment e = new StoredExperiment(id, "g", "r", id, null, Map.of("method", method, "seed", seed),
                Map.of(), null, null, null, null, null, null);
        List<MetricRecord> series = List.of(new MetricRecord("m", 0, value, 0), new MetricRecord("m", 1, value, 0));
        RunSummary s = RunSummary.of(series, ExperimentSummary.LAST_K);
        experiments.add(e);
        byId.put(id, new ExperimentSummary(e, id, Map.of("loss", s, "Vacc", s)));
    }
}
