package org.gridrun.analysis;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.gridrun.engine.run.RunState;

/**
 * One experiment as the store holds it: identity, configuration and the lifecycle of its current attempt.
 *
 * <p>The lifecycle fields are null when the store has no state for the experiment yet, {@code started} until it
 * runs and {@code ended} until it reaches a terminal state.
 *
 * @param id      the config hash
 * @param grid    the grid name
 * @param run     the named run inside the grid
 * @param name    the readable experiment name
 * @param runDir  the run directory the experiment was ingested from or staged in; null when unknown
 * @param params  the values the grid set, in grid key order
 * @param config  the resolved configuration, in its key order
 * @param state   the current state, or null
 * @param host    the host that ran it (or recorded its latest state), or null
 * @param started the attempt's first RUNNING time, or null
 * @param ended   the attempt's terminal time, or null
 * @param detail  the latest state's detail (the terminal entry's once terminal), or null
 * @param job     the scheduler job of the current attempt ({@code slurm:123_4}, {@code local:4711}), or null
 */
public record StoredExperiment(String id, String grid, String run, String name, Path runDir,
                               Map<String, Object> params, Map<String, Object> config, RunState state,
                               String host, Instant started, Instant ended, String detail,
                               String job) {
    public StoredExperiment {
        Objects.requireNonNull(id, "id");
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        config = Collections.unmodifiableMap(new LinkedHashMap<>(config));
    }
}
