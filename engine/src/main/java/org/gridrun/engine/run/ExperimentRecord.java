package org.gridrun.engine.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a run directory's {@code experiment.yaml} holds: where the experiment comes from, its identity, and its fully
 * resolved configuration (every trainer key, defaults included).
 *
 * @param grid   the grid name (the YAML file's base name)
 * @param run    the named run inside the grid file
 * @param name   the readable experiment name, {@code <prefix>_<NNN>_<k>_<v>,…}
 * @param id     the config hash that identifies the experiment
 * @param params the values the grid set for this experiment, in grid key order: what the config hash covers and
 *               what labels and names show (values are String, Long, Double or Boolean)
 * @param config the resolved configuration: every trainer key, defaults included, same value types
 */
public record ExperimentRecord(String grid, String run, String name, String id, Map<String, Object> params,
                               Map<String, Object> config) {
    public ExperimentRecord {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        config = Collections.unmodifiableMap(new LinkedHashMap<>(config));
    }
}
