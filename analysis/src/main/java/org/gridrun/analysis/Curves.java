package org.gridrun.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.gridrun.engine.run.MetricRecord;

/**
 * Curves over seeds: the per-step mean of one metric's series from several experiments.
 */
public final class Curves {
    private Curves() {
    }

    /**
     * The mean value per step over the steps every series has, ordered by step.
     *
     * <p>Each point is named after the first series' metric, and its wall time is the latest of the series at that
     * step (when the last seed reached it). A step that appears twice in one series counts with its later record.
     * No series, or no shared step, gives an empty curve.
     */
    public static List<MetricRecord> meanOverSeeds(List<List<MetricRecord>> series) {
        if (series.isEmpty()) {
            return List.of();
        }
        List<Map<Long, MetricRecord>> bySteps = new ArrayList<>();
        series.forEach(s -> bySteps.add(byStep(s)));
        TreeSet<Long> shared = new TreeSet<>(bySteps.get(0).keySet());
        bySteps.forEach(s -> shared.retainAll(s.keySet()));
        String name = series.get(0).isEmpty() ? "" : series.get(0).get(0).name();
        List<MetricRecord> curve = new ArrayList<>(shared.size());
        for (long step : shared) {
            curve.add(meanAt(name, step, bySteps));
        }
        return curve;
    }

    private static MetricRecord meanAt(String name, long step, List<Map<Long, MetricRecord>> bySteps) {
        double sum = 0;
        long wall = Long.MIN_VALUE;
        for (Map<Long, MetricRecord> s : bySteps) {
            MetricRecord record = s.get(step);
            sum += record.value();
            wall = Math.max(wall, record.wallMillis());
        }
        return new MetricRecord(name, step, sum / bySteps.size(), wall);
    }

    private static Map<Long, MetricRecord> byStep(List<MetricRecord> series) {
        Map<Long, MetricRecord> map = new TreeMap<>();
        series.forEach(r -> map.put(r.step(), r));
        return map;
    }
}
