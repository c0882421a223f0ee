package org.gridrun.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.gridrun.engine.run.MetricRecord;

/**
 * Curves of one metric: the per-step mean and confidence band over seeds, EMA smoothing, and resampling of series
 * that were logged at different steps onto common ones.
 *
 * <p>A series is a list of records ordered by step, as {@link ResultsStore#series} returns it.
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

    /**
     * The mean ± 95% t-interval over seeds at common steps: each series is first resampled (linear interpolation)
     * to {@link #commonSteps}, so seeds logged at different steps, or a resumed run with a gap, still line up.
     * Non-finite points are left out of a step's summary; a step where none is finite is left out.
     */
    public static List<CurveBand> bandOverSeeds(List<List<MetricRecord>> series) {
        long[] steps = commonSteps(series);
        List<double[]> resampled = new ArrayList<>(series.size());
        series.forEach(s -> resampled.add(valuesAt(s, steps)));
        List<CurveBand> band = new ArrayList<>(steps.length);
        for (int i = 0; i < steps.length; i++) {
            double[] finite = new double[resampled.size()];
            int n = 0;
            for (double[] values : resampled) {
                if (Double.isFinite(values[i])) {
                    finite[n++] = values[i];
                }
            }
            if (n > 0) {
                band.add(new CurveBand(steps[i], SeedSummary.of(Arrays.copyOf(finite, n))));
            }
        }
        return band;
    }

    /**
     * The steps several series can be compared at: every step any of them has, within the range all of them cover
     * (from the latest first step to the earliest last step). Empty when there is no series or no overlap.
     */
    public static long[] commonSteps(List<List<MetricRecord>> series) {
        if (series.isEmpty() || series.stream().anyMatch(List::isEmpty)) {
            return new long[0];
        }
        long from = series.stream().mapToLong(s -> s.get(0).step()).max().orElseThrow();
        long to = series.stream().mapToLong(s -> s.get(s.size() - 1).step()).min().orElseThrow();
        TreeSet<Long> steps = new TreeSet<>();
        for (List<MetricRecord> s : series) {
            for (MetricRecord r : s) {
                if (r.step() >= from && r.step() <= to) {
                    steps.add(r.step());
                }
            }
        }
        return steps.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * {@code series} resampled at {@code steps} (ascending) by linear interpolation between its neighbouring
     * records; a step outside the series' range is left out. A step the series has keeps its value exactly.
     */
    public static List<MetricRecord> resample(List<MetricRecord> series, long[] steps) {
        double[] values = valuesAt(series, steps);
        List<MetricRecord> out = new ArrayList<>(steps.length);
        String name = series.isEmpty() ? "" : series.get(0).name();
        int next = 0; // the first record at or after the step: its wall time is when the step was reached
        for (int i = 0; i < steps.length; i++) {
            if (inRange(series, steps[i])) {
                while (series.get(next).step() < steps[i]) {
                    next++;
                }
                out.add(new MetricRecord(name, steps[i], values[i], series.get(next).wallMillis()));
            }
        }
        return out;
    }

    /**
     * The exponential moving average of {@code series}: {@code s_0 = x_0}, {@code s_i = α·x_i + (1 − α)·s_{i−1}},
     * with {@code 0 < α <= 1} (1 leaves the series as it is). A non-finite value is kept as it is and does not enter
     * the average, so one diverged point does not wipe out the rest of the curve.
     */
    public static List<MetricRecord> ema(List<MetricRecord> series, double alpha) {
        if (!(alpha > 0 && alpha <= 1)) {
            throw new IllegalArgumentException("EMA weight alpha must be in (0, 1], found " + alpha);
        }
        List<MetricRecord> out = new ArrayList<>(series.size());
        double smooth = Double.NaN;
        for (MetricRecord r : series) {
            if (!Double.isFinite(r.value())) {
                out.add(r);
                continue;
            }
            smooth = Double.isNaN(smooth) ? r.value() : alpha * r.value() + (1 - alpha) * smooth;
            out.add(new MetricRecord(r.name(), r.step(), smooth, r.wallMillis()));
        }
        return out;
    }

    private static boolean inRange(List<MetricRecord> series, long step) {
        return !series.isEmpty() && step >= series.get(0).step() && step <= series.get(series.size() - 1).step();
    }

    /** Interpolated values of {@code series} at {@code steps} (ascending); NaN outside its range. */
    private static double[] valuesAt(List<MetricRecord> series, long[] steps) {
        double[] out = new double[steps.length];
        int j = 0;
        for (int i = 0; i < steps.length; i++) {
            long step = steps[i];
            if (!inRange(series, step)) {
                out[i] = Double.NaN;
                continue;
            }
            while (j + 1 < series.size() && series.get(j + 1).step() <= step) {
                j++;
            }
            MetricRecord left = series.get(j);
            if (left.step() == step || j + 1 == series.size()) {
                out[i] = left.value();
            } else {
                MetricRecord right = series.get(j + 1);
                double w = (double) (step - left.step()) / (right.step() - left.step());
                out[i] = left.value() + w * (right.value() - left.value());
            }
        }
        return out;
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
