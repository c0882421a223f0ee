package org.gridrun.analysis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Experiments that differ only in their seed: one configuration, repeated.
 *
 * @param label       a readable name for the group, such as {@code method=qsgd, bits=4}
 * @param params      the shared params, seed left out, in grid key order
 * @param experiments the group's experiments, in the order they were given
 */
public record SeedGroup(String label, Map<String, Object> params, List<StoredExperiment> experiments) {
    public SeedGroup {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        experiments = List.copyOf(experiments);
    }

    /** The number of seeds (experiments) in the group. */
    public int seeds() {
        return experiments.size();
    }
}
