package org.gridrun.reports.paper;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.gridrun.analysis.ResultsStore;
import org.gridrun.analysis.StoredExperiment;

/**
 * Finds the experiments of a series: those of the source's runs whose params (or, for a key the grid did not set,
 * resolved config) have every value the series' {@code match} names.
 *
 * <p>Values compare as written or, when both are numbers, by value, so {@code 0.5} matches {@code .5} and {@code 4}
 * matches {@code 4.0}. A boolean key set with the grid's empty-string flag ({@code ignore_small_buckets: ''})
 * matches {@code true}.
 */
final class SeriesMatch {
    private SeriesMatch() {
    }

    /** The experiments of every run of {@code source}, in run order then store order. */
    static List<StoredExperiment> experiments(ResultsStore store, SourceSpec source) {
        List<StoredExperiment> all = new ArrayList<>();
        source.runs().forEach(run -> all.addAll(store.experiments(source.grid(), run)));
        return all;
    }

    /** The experiments among {@code experiments} that {@code series} matches. */
    static List<StoredExperiment> of(SeriesSpec series, List<StoredExperiment> experiments) {
        return experiments.stream().filter(e -> series.matches(e.params(), e.config())).toList();
    }

    static boolean same(String want, Object have) {
        String text = have.toString();
        if (want.equals(text) || ("true".equals(want) && text.isEmpty())) {
            return true;
        }
        try {
            return new BigDecimal(want).compareTo(new BigDecimal(text)) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
