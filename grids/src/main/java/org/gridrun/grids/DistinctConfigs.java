package org.gridrun.grids;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Finds repeated configs in one expansion without hashing each: two configs are the same exactly when their
 * canonical forms ({@link ConfigHash#canonical}) are, that is when they hold the same set of canonical lines.
 *
 * <p>Each distinct line gets a number the first time it is met; a config is the sorted numbers of its lines. This
 * gives what comparing ids would, without a SHA-256 per experiment, and without its (negligible) collisions. Where
 * the keys of a sub-grid's axes are disjoint, a config splits into one point per axis, so the combinations of
 * distinct points are all distinct and need not be remembered ({@link #allDistinct}).
 */
final class DistinctConfigs {
    private final Map<Setting, Integer> numbers = new IdentityHashMap<>();
    private final Map<String, Integer> lines = new HashMap<>();
    private final Set<Form> seen = new HashSet<>();

    /** Whether {@code settings}, whose keys are distinct, is a config not met before; remembers it. */
    boolean add(Setting[] settings) {
        return seen.add(form(settings));
    }

    /**
     * Whether every combination of one point per axis is a distinct config, so that none need be remembered: true
     * when the axes set disjoint keys and no axis has two points of the same config.
     */
    boolean allDistinct(SubGrid sub) {
        if (sub.overlapping()) {
            return false;
        }
        for (Axis axis : sub.axes()) {
            Set<Form> points = new HashSet<>();
            for (Setting[] point : axis.points()) {
                if (!points.add(form(point))) {
                    return false;
                }
            }
        }
        return true;
    }

    private Form form(Setting[] settings) {
        int[] form = new int[settings.length];
        for (int i = 0; i < settings.length; i++) {
            form[i] = numbers.computeIfAbsent(settings[i], s -> lines.computeIfAbsent(
                    new String(s.canonical(), StandardCharsets.ISO_8859_1), line -> lines.size()));
        }
        Arrays.sort(form);
        return new Form(form);
    }

    /** The line numbers of one config, sorted. */
    private record Form(int[] lines) {

        @Override
        public boolean equals(Object o) {
            return o instanceof Form other && Arrays.equals(lines, other.lines);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(lines);
        }

        @Override
        public String toString() {
            return Arrays.toString(lines);
        }
    }
}
