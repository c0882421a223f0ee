package org.gridrun.jobs.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.jobs.UserInputException;

/**
 * The experiments a resubmission is limited to: {@code --where KEY=VALUE}, each condition on the experiment's
 * resolved config (its grid's values and the trainer's defaults). Conditions on one key are alternatives
 * ({@code --where method=alq --where method=amq}), conditions on different keys must all hold. A number matches a
 * number of the same value ({@code lr=0.1} and {@code lr=1e-1}), a boolean {@code true} or {@code false}, a string
 * itself.
 */
public final class ExperimentFilter implements Predicate<PlannedExperiment> {
    /** Each key's accepted values. */
    private final Map<String, List<String>> conditions;

    private ExperimentFilter(Map<String, List<String>> conditions) {
        this.conditions = conditions;
    }

    /** The filter that takes every experiment. */
    public static ExperimentFilter all() {
        return new ExperimentFilter(Map.of());
    }

    /**
     * Parses {@code KEY=VALUE} conditions and checks each key against the experiments of the plan: one that none of
     * them has is a typo, reported with the option as given.
     *
     * @throws UserInputException for a condition without {@code =} or key, or a key no experiment of the plan has
     */
    public static ExperimentFilter parse(List<String> where, List<PlannedExperiment> experiments) {
        Map<String, List<String>> conditions = new LinkedHashMap<>();
        for (String condition : where) {
            int eq = condition.indexOf('=');
            if (eq <= 0) {
                throw new UserInputException("--where " + condition + ": expected KEY=VALUE, such as method=alq");
            }
            String key = condition.substring(0, eq).trim();
            if (experiments.stream().noneMatch(e -> e.record().config().containsKey(key))) {
                throw new UserInputException("--where " + condition + ": no experiment of the grid has the key '"
                        + key + "' (grid-run list keys names the trainer's keys)");
            }
            conditions.computeIfAbsent(key, k -> new ArrayList<>()).add(condition.substring(eq + 1).trim());
        }
        return new ExperimentFilter(conditions);
    }

    @Override
    public boolean test(PlannedExperiment e) {
        return matches(e.record());
    }

    /** Whether {@code experiment}'s config has, for every key, one of the values given for it. */
    public boolean matches(ExperimentRecord experiment) {
        for (Map.Entry<String, List<String>> c : conditions.entrySet()) {
            Object value = experiment.config().get(c.getKey());
            if (c.getValue().stream().noneMatch(wanted -> equal(value, wanted))) {
                return false;
            }
        }
        return true;
    }

    private static boolean equal(Object value, String wanted) {
        if (value instanceof Number n) {
            try {
                return n.doubleValue() == Double.parseDouble(wanted);
            } catch (NumberFormatException notANumber) {
                return false;
            }
        }
        return value != null && Objects.equals(String.valueOf(value), wanted);
    }
}
