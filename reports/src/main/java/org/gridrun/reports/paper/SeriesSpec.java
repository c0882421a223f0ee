package org.gridrun.reports.paper;

import java.awt.Color;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of a figure, or one row of a table: its legend label, its fixed colour, and the params an experiment must
 * have to belong to it (every seed of those experiments is averaged).
 *
 * @param label  the legend label, e.g. {@code ALQ-N}
 * @param colour the line colour
 * @param match  param name to value, compared as written or as numbers ({@code 0.5} matches {@code .5})
 * @param line   the spec file line where the series is written, for warnings
 */
public record SeriesSpec(String label, Color colour, Map<String, String> match, int line) {
    public SeriesSpec {
        match = Collections.unmodifiableMap(new LinkedHashMap<>(match));
    }

    /**
     * Whether an experiment with {@code params} (the values its grid set) and {@code config} (its resolved
     * configuration, consulted for keys the grid did not set; may be empty) belongs to this series.
     */
    public boolean matches(Map<String, Object> params, Map<String, Object> config) {
        for (Map.Entry<String, String> want : match.entrySet()) {
            Object have = params.containsKey(want.getKey()) ? params.get(want.getKey()) : config.get(want.getKey());
            if (have == null || !SeriesMatch.same(want.getValue(), have)) {
                return false;
            }
        }
        return true;
    }
}
