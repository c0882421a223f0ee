package org.gridrun.reports;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.gridrun.analysis.RunSummary;
import org.gridrun.analysis.StoredExperiment;

/**
 * One experiment as the site lists it: the experiment, the file name of its page, and the summary of each of its
 * metrics (last value, extremes, mean of the last {@value #LAST_K}).
 *
 * @param experiment the experiment
 * @param slug       its page's file name without {@code .html}
 * @param metrics    the summary of each metric it recorded, by metric name in name order
 */
record ExperimentSummary(StoredExperiment experiment, String slug, Map<String, RunSummary> metrics) {
    /** How many of the last values the site averages, as papers report a method's final accuracy. */
    static final int LAST_K = 5;

    ExperimentSummary {
        metrics = Collections.unmodifiableMap(new TreeMap<>(metrics));
    }
}
