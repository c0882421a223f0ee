package org.gridrun.jobs.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.gridrun.engine.config.ConfigKey;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.grids.KeySchema;

/**
 * The trainer's configuration keys, as the grid language checks them.
 *
 * <p>Grids cannot see the engine; this adapter is the one place that joins the two.
 */
public final class TrainerKeySchema implements KeySchema {
    private final Map<String, ConfigKey> keys = new LinkedHashMap<>();

    public TrainerKeySchema() {
        for (ConfigKey key : TrainerConfig.schema()) {
            keys.put(key.name(), key);
        }
    }

    @Override
    public Set<String> keys() {
        return keys.keySet();
    }

    @Override
    public Optional<String> problem(String key, Object value) {
        ConfigKey spec = keys.get(key);
        return spec == null ? Optional.of("is not a trainer key") : spec.type().problem(value);
    }

    @Override
    public List<String> choices(String key) {
        return TrainerConfig.choices(key);
    }
}
