package org.gridrun.reports;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.function.ToDoubleFunction;
import org.gridrun.analysis.SeedGroup;
import org.gridrun.analysis.SeedSummary;
import org.gridrun.analysis.StoredExperiment;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.train.Headline;

/**
 * One line of the report's group table: a seed group and its statistics over seeds.
 *
 * <p>Each statistic summarises one number per experiment, over the experiments that have it: the last test
 * accuracy (perplexity for a language model), the mean bits sent per step, the mean compression ratio.
 *
 * @param group    the seed group
 * @param method   the {@code method} param (or config key), empty when there is none
 * @param bits     the {@code bits} param, {@code 32 (float)} for method {@code none}, empty when there is none
 * @param headline what the group is judged by: test accuracy, or perplexity when its runs are language models
 * @param result   the final headline values over seeds (accuracies as fractions, perplexities)
 * @param bitsSent the bits sent per step over seeds
 * @param ratio    the compression ratios over seeds
 * @param variance the final gradient variances ({@code est_var}) over seeds
 * @param state    the group's state, or a count per state when its experiments differ
 * @param unsound  the count per state of its experiments that ended FAILED, KILLED or DIVERGED, or are still
 *                 running or waiting, e.g. {@code 1 DIVERGED}; empty when all completed
 */
record GroupRow(SeedGroup group, String method, String bits, Headline headline, SeedSummary result,
                SeedSummary bitsSent, SeedSummary ratio, SeedSummary variance, String state, String unsound) {
    static final String METHOD = "method";
    static final String BITS = "bits";
    static final String NO_COMPRESSION = "none";
    static final String FLOAT_BITS = "32 (float)";
    static final String NO_STATE = "not recorded";

    /** The row of {@code group}, given every experiment's facts. */
    static GroupRow of(SeedGroup group, Map<String, ExperimentFacts> facts) {
        List<ExperimentFacts> members = group.experiments().stream().map(e -> facts.get(e.id())).toList();
        StoredExperiment first = group.experiments().get(0);
        String method = setting(first, METHOD);
        String bits = NO_COMPRESSION.equals(method) ? FLOAT_BITS : setting(first, BITS);
        Headline headline = Headline.of(members.stream().anyMatch(m -> m.headline() == Headline.PERPLEXITY));
        ToDoubleFunction<ExperimentFacts> result = headline == Headline.PERPLEXITY ? ExperimentFacts::finalVppl
                : ExperimentFacts::finalVacc;
        return new GroupRow(group, method, bits, headline, summary(members, result),
                summary(members, ExperimentFacts::meanBits), summary(members, ExperimentFacts::meanRatio),
                summary(members, ExperimentFacts::finalVar), state(group.experiments()),
                unsound(group.experiments()));
    }

    /** The header of the headline's column over {@code rows}: accuracy, perplexity, or both when they mix. */
    static String headlineHeader(List<GroupRow> rows) {
        boolean perplexity = rows.stream().anyMatch(r -> r.headline == Headline.PERPLEXITY);
        boolean accuracy = rows.stream().anyMatch(r -> r.headline == Headline.ACCURACY);
        return perplexity ? (accuracy ? "final test accuracy (%) or perplexity (ppl)" : "final test perplexity")
                : "final test accuracy (%)";
    }

    /** The headline's mean ± sd as shown in a column headed by {@link #headlineHeader} of {@code rows}. */
    String headlineCell(List<GroupRow> rows) {
        String text = Formats.meanStd(result, headline.scale());
        boolean mixed = rows.stream().anyMatch(r -> r.headline != headline);
        return mixed && headline == Headline.PERPLEXITY && !Formats.MISSING.equals(text) ? text + " ppl" : text;
    }

    /** The state of one experiment as the report shows it. */
    static String state(RunState state) {
        return state == null ? NO_STATE : state.name();
    }

    private static String setting(StoredExperiment experiment, String key) {
        Object value = experiment.params().containsKey(key) ? experiment.params().get(key)
                : experiment.config().get(key);
        return value == null ? "" : String.valueOf(value);
    }

    private static SeedSummary summary(List<ExperimentFacts> members, ToDoubleFunction<ExperimentFacts> fact) {
        return SeedSummary.of(members.stream().mapToDouble(fact).filter(v -> !Double.isNaN(v)).toArray());
    }

    private static String unsound(List<StoredExperiment> experiments) {
        Map<RunState, Integer> counts = new EnumMap<>(RunState.class);
        experiments.stream().filter(e -> e.state() != RunState.COMPLETED && e.state() != null)
                .forEach(e -> counts.merge(e.state(), 1, Integer::sum));
        StringJoiner joiner = new StringJoiner(", ");
        counts.forEach((state, n) -> joiner.add(n + " " + state));
        return joiner.toString();
    }

    private static String state(List<StoredExperiment> experiments) {
        Map<RunState, Integer> counts = new EnumMap<>(RunState.class);
        int unknown = 0;
        for (StoredExperiment e : experiments) {
            if (e.state() == null) {
                unknown++;
            } else {
                counts.merge(e.state(), 1, Integer::sum);
            }
        }
        if (counts.size() == 1 && unknown == 0) {
            return Objects.toString(counts.keySet().iterator().next());
        }
        if (counts.isEmpty()) {
            return NO_STATE;
        }
        StringJoiner joiner = new StringJoiner(", ");
        counts.forEach((state, n) -> joiner.add(n + " " + state));
        if (unknown > 0) {
            joiner.add(unknown + " " + NO_STATE);
        }
        return joiner.toString();
    }
}
