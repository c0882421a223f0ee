package org.gridrun.grids;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code slurm:} block as written: only what it sets, so that blocks can be merged before defaults apply.
 *
 * <p>{@link #over} merges a block over a base: options and env entry by entry (a base entry keeps its place, a new
 * one follows), everything else replaced when this block sets it. A null field is unset.
 *
 * @param options       sbatch options set, in order
 * @param maxRequeues   max-requeues, or null
 * @param signalSeconds signal-seconds, or null
 * @param setup         setup lines, or null
 * @param env           environment variables set, in order
 * @param extra         extra sbatch options, or null
 */
record SlurmBlock(Map<String, String> options, Integer maxRequeues, Integer signalSeconds, List<String> setup,
                  Map<String, String> env, List<String> extra) {
    /** A block that sets nothing. */
    static final SlurmBlock NONE = new SlurmBlock(Map.of(), null, null, null, Map.of(), null);

    SlurmBlock {
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
        setup = setup == null ? null : List.copyOf(setup);
        extra = extra == null ? null : List.copyOf(extra);
    }

    /** This block merged over {@code base}: where both set something, this block's wins. */
    SlurmBlock over(SlurmBlock base) {
        Map<String, String> mergedOptions = new LinkedHashMap<>(base.options);
        mergedOptions.putAll(options);
        Map<String, String> mergedEnv = new LinkedHashMap<>(base.env);
        mergedEnv.putAll(env);
        return new SlurmBlock(mergedOptions, or(maxRequeues, base.maxRequeues), or(signalSeconds, base.signalSeconds),
                or(setup, base.setup), mergedEnv, or(extra, base.extra));
    }

    /** The spec this block gives, with defaults for what it leaves unset. */
    SlurmSpec spec() {
        return new SlurmSpec(options, or(maxRequeues, SlurmSpec.DEFAULT_MAX_REQUEUES),
                or(signalSeconds, SlurmSpec.DEFAULT_SIGNAL_SECONDS), or(setup, List.of()), env, or(extra, List.of()));
    }

    private static <T> T or(T value, T otherwise) {
        return value != null ? value : otherwise;
    }
}
