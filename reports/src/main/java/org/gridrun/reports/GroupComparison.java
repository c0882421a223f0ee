package org.gridrun.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.gridrun.analysis.RunSummary;
import org.gridrun.analysis.SeedGroup;
import org.gridrun.analysis.SeedSummary;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.analysis.WelchTest;

/**
 * The comparison of seed groups on one metric: per group, the mean ± std over seeds of each run's mean of its last
 * {@value ExperimentSummary#LAST_K} values, and Welch's t-test against the best group.
 *
 * <p>Runs whose value is not finite (a diverged loss) are counted apart and left out of the statistics, so one
 * diverged seed shows as such instead of turning the group's mean into {@code NaN}. The best group has the highest
 * mean for metrics where higher is better (accuracies, compression ratio, speed-up: names matching
 * {@value #HIGHER_IS_BETTER}), else the lowest. A test needs two finite values in both groups.
 *
 * @param metric the metric
 * @param rows   one row per group that recorded the metric, in group order
 */
record GroupComparison(String metric, List<Row> rows) {
    static final String HIGHER_IS_BETTER = "(?i).*(acc|ratio|speedup).*";

    /**
     * One group's statistics.
     *
     * @param group     the seed group
     * @param values    the finite last-k means of its runs
     * @param nonFinite how many of its runs ended with a non-finite value
     * @param summary   mean, std and 95% interval of {@code values}
     * @param best      whether it is the best group
     * @param vsBest    Welch's test of this group against the best one; null for the best or when untestable
     */
    record Row(SeedGroup group, double[] values, int nonFinite, SeedSummary summary, boolean best, WelchTest vsBest) {
    }

    /** Whether a larger value of {@code metric} is better. */
    static boolean higherIsBetter(String metric) {
        return Pattern.matches(HIGHER_IS_BETTER, metric);
    }

    /** The comparison of {@code groups} on {@code metric}, given the summary of every experiment by id. */
    static GroupComparison of(String metric, List<SeedGroup> groups, Map<String, ExperimentSummary> byId) {
        List<double[]> values = new ArrayList<>();
        List<Integer> nonFinite = new ArrayList<>();
        List<SeedGroup> present = new ArrayList<>();
        for (SeedGroup group : groups) {
            List<Double> finite = new ArrayList<>();
            int bad = 0;
            for (StoredExperiment e : group.experiments()) {
                RunSummary s = byId.get(e.id()).metrics().get(metric);
                if (s != null && s.count() > 0) {
                    if (Double.isFinite(s.lastK())) {
                        finite.add(s.lastK());
                    } else {
                        bad++;
                    }
                }
            }
            if (!finite.isEmpty() || bad > 0) {
                present.add(group);
                values.add(finite.stream().mapToDouble(Double::doubleValue).toArray());
                nonFinite.add(bad);
            }
        }
        int best = best(metric, values);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < present.size(); i++) {
            double[] v = values.get(i);
            WelchTest test = i != best && best >= 0 && v.length >= 2 && values.get(best).length >= 2
                    ? WelchTest.of(v, values.get(best)) : null;
            rows.add(new Row(present.get(i), v, nonFinite.get(i), SeedSummary.of(v), i == best, test));
        }
        return new GroupComparison(metric, rows);
    }

    private static int best(String metric, List<double[]> values) {
        double sign = higherIsBetter(metric) ? 1 : -1;
        int best = -1;
        double bestMean = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < values.size(); i++) {
            double mean = SeedSummary.of(values.get(i)).mean();
            if (!Double.isNaN(mean) && sign * mean > bestMean) {
                bestMean = sign * mean;
                best = i;
            }
        }
        return best;
    }
}
