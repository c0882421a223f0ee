package org.gridrun.analysis;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Groups experiments that repeat one configuration over seeds.
 *
 * <p>Two experiments belong together when their params are equal once {@value #SEED} is left out. A group's label
 * lists its params as {@code key=value} in grid key order; when some params are the same in every group, the label
 * keeps only the ones that vary between groups, which is shorter and says what the comparison is about. When the
 * experiments come from several runs, a group of one run is labelled by its run and the keys that vary within it.
 */
public final class Groups {
    /** The param that tells repetitions of one configuration apart. */
    public static final String SEED = "seed";
    /** The label of a group whose only param is the seed. */
    static final String NO_PARAMS = "(seed only)";

    private Groups() {
    }

    /** The seed groups of {@code experiments}, in the order each group is first seen. */
    public static List<SeedGroup> bySeed(List<StoredExperiment> experiments) {
        return group(experiments, Groups::withoutSeed);
    }

    /**
     * Groups {@code experiments} by the values of the params {@code keys} alone (for example {@code method} and
     * {@code bits}, pooling every bucket size and seed), in the order each group is first seen. A key an experiment
     * lacks is left out of its group's params, so experiments without it group together. Unknown keys are an error
     * naming the params that exist, since a misspelt key would silently put everything into one group.
     */
    public static List<SeedGroup> by(List<StoredExperiment> experiments, Collection<String> keys) {
        Set<String> known = new LinkedHashSet<>();
        experiments.forEach(e -> known.addAll(e.params().keySet()));
        for (String key : keys) {
            if (!experiments.isEmpty() && !known.contains(key)) {
                throw new IllegalArgumentException("no experiment has the param '" + key + "'; params: "
                        + String.join(", ", known));
            }
        }
        return group(experiments, params -> {
            Map<String, Object> chosen = new LinkedHashMap<>();
            keys.stream().filter(params::containsKey).forEach(k -> chosen.put(k, params.get(k)));
            return chosen;
        });
    }

    private static List<SeedGroup> group(List<StoredExperiment> experiments,
            Function<Map<String, Object>, Map<String, Object>> groupKey) {
        Map<Map<String, Object>, List<StoredExperiment>> groups = new LinkedHashMap<>();
        for (StoredExperiment experiment : experiments) {
            groups.computeIfAbsent(groupKey.apply(experiment.params()), k -> new ArrayList<>()).add(experiment);
        }
        Set<String> varying = varyingKeys(groups.keySet());
        Map<String, Set<Map<String, Object>>> byRun = new LinkedHashMap<>();
        groups.forEach((params, members) -> onlyRun(members).ifPresent(
                run -> byRun.computeIfAbsent(run, r -> new LinkedHashSet<>()).add(params)));
        boolean severalRuns = experiments.stream().map(StoredExperiment::run).distinct().count() > 1;
        List<SeedGroup> result = new ArrayList<>();
        groups.forEach((params, members) -> {
            Optional<String> run = onlyRun(members);
            String label = severalRuns && run.isPresent()
                    ? runLabel(run.get(), params, varyingKeys(byRun.get(run.get())))
                    : label(params, varying);
            result.add(new SeedGroup(label, params, members));
        });
        return result;
    }

    /** The run all of {@code members} belong to; empty when they come from several (or it is unknown). */
    private static Optional<String> onlyRun(List<StoredExperiment> members) {
        Set<String> runs = new LinkedHashSet<>();
        members.forEach(m -> runs.add(m.run()));
        return runs.size() == 1 ? Optional.ofNullable(runs.iterator().next()) : Optional.empty();
    }

    /**
     * Within a grid of several runs (each comparing its own methods), a group of one run is named by the run and
     * the keys that vary among that run's groups, {@code nuq: method=qinf}, rather than by every key that differs
     * somewhere in the grid; a run of one group is named by the run alone.
     */
    private static String runLabel(String run, Map<String, Object> params, Set<String> varyingInRun) {
        String brief = format(params, varyingInRun);
        return brief.isEmpty() ? run : run + ": " + brief;
    }

    /** The params without the seed, order kept. */
    static Map<String, Object> withoutSeed(Map<String, Object> params) {
        Map<String, Object> rest = new LinkedHashMap<>(params);
        rest.remove(SEED);
        return rest;
    }

    /** The keys whose value is not the same in every one of {@code paramSets} (absent counts as a value). */
    static Set<String> varyingKeys(Set<Map<String, Object>> paramSets) {
        Set<String> keys = new LinkedHashSet<>();
        paramSets.forEach(p -> keys.addAll(p.keySet()));
        Set<String> varying = new LinkedHashSet<>();
        for (String key : keys) {
            Set<Object> values = new LinkedHashSet<>();
            paramSets.forEach(p -> values.add(p.containsKey(key) ? Objects.toString(p.get(key)) : Absent.VALUE));
            if (values.size() > 1) {
                varying.add(key);
            }
        }
        return varying;
    }

    private static String label(Map<String, Object> params, Set<String> varying) {
        String full = format(params, params.keySet());
        String brief = format(params, varying);
        String label = !brief.isEmpty() && brief.length() < full.length() ? brief : full;
        return label.isEmpty() ? NO_PARAMS : label;
    }

    private static String format(Map<String, Object> params, Set<String> keys) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Object> entry : params.entrySet()) {
            if (keys.contains(entry.getKey())) {
                out.append(out.length() == 0 ? "" : ", ").append(entry.getKey()).append('=').append(entry.getValue());
            }
        }
        return out.toString();
    }

    /** Marks a key a group lacks, distinct from every value. */
    private enum Absent { VALUE }
}
