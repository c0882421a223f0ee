package org.gridrun.grids;

import java.util.List;
import java.util.Map;

/** TEMPORARY stand-in until the grids-lang branch lands (same signature). */
public record SlurmSpec(Map<String, String> options, int maxRequeues, int signalSeconds, List<String> setup,
                        Map<String, String> env, List<String> extra) {
    public static SlurmSpec empty() {
        return new SlurmSpec(Map.of(), 3, 120, List.of(), Map.of(), List.of());
    }
}
