package org.gridrun.reports;

import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.RunState;

/**
 * Everything the report page shows, gathered before it is rendered.
 *
 * @param grid          the grid name
 * @param run           the run name, or null for every run
 * @param states        how many experiments are in each recorded state
 * @param experiments   the experiments' facts, in name order
 * @param groups        the group table's rows
 * @param figures       the figures that were drawn
 */
record ReportModel(String grid, String run, Map<RunState, Integer> states, List<ExperimentFacts> experiments,
                   List<GroupRow> groups, List<Figures.Spec> figures) {

    /** Accuracies ({@code Vacc}) are recorded as fractions in [0, 1] and shown in percent. */
    static final double PERCENT = 100.0;

    /** The number of experiments without a recorded state. */
    int unrecorded() {
        return experiments.size() - states.values().stream().mapToInt(Integer::intValue).sum();
    }
}
