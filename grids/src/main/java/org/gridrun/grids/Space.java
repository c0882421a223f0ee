package org.gridrun.grids;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.grids.yaml.Mark;

/**
 * What a value, a zip group or an override spans: its points in order, and the keys they set.
 *
 * <p>A point is the settings of one combination, in key order. A union lists the points of its parts one after the
 * other (a list of values, a list of sub-grids); a product combines one point of each factor, the last factor
 * varying fastest, joining their settings in factor order (a value and its overrides, the keys of an override
 * mapping). In a product each key may be set by one factor only, so that every point sets a key at most once.
 *
 * @param points the points, each an array of settings with distinct keys; arrays are shared, never changed
 * @param keys   every key some point sets, in first-written order, with where it was first written
 */
record Space(List<Setting[]> points, Map<String, Mark> keys) {
    /** The most points one space, or one run, may have: beyond it a grid is most likely a mistake. */
    static final long MAX_POINTS = 1_000_000;

    Space {
        points = List.copyOf(points);
        keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
    }

    /** The space of one setting, whose key was written at {@code keyMark}. */
    static Space of(Setting setting, Mark keyMark) {
        return new Space(List.<Setting[]>of(new Setting[] {setting}), Map.of(setting.key(), keyMark));
    }

    /** The points of {@code parts} one after the other. */
    static Space union(List<Space> parts) {
        List<Setting[]> points = new ArrayList<>();
        Map<String, Mark> keys = new LinkedHashMap<>();
        for (Space part : parts) {
            points.addAll(part.points());
            part.keys().forEach(keys::putIfAbsent);
        }
        return new Space(points, keys);
    }

    /**
     * Every combination of one point of each factor, the last factor fastest.
     *
     * <p>A key that two factors set, and a product beyond {@link #MAX_POINTS}, are problems; the latter is
     * reported at {@code where} and gives an empty space.
     */
    static Space product(List<Space> factors, ProblemList problems, Mark where) {
        Map<String, Mark> keys = distinctKeys(factors.stream().map(Space::keys).toList(), problems);
        long size = 1;
        for (Space factor : factors) {
            size *= factor.points().size();
            if (size > MAX_POINTS) {
                problems.add(where, "this spans more than " + MAX_POINTS + " combinations; split the grid, or use"
                        + " sample for a random subset");
                return new Space(List.of(), keys);
            }
        }
        List<Setting[]> points = new ArrayList<>(List.<Setting[]>of(new Setting[0]));
        for (Space factor : factors) {
            List<Setting[]> next = new ArrayList<>();
            for (Setting[] head : points) {
                for (Setting[] tail : factor.points()) {
                    next.add(concat(head, tail));
                }
            }
            points = next;
        }
        return new Space(points, keys);
    }

    /**
     * The keys of parts that are combined, in order; a key set by two parts is a problem, reported where the later
     * part wrote it.
     */
    static Map<String, Mark> distinctKeys(List<Map<String, Mark>> parts, ProblemList problems) {
        Map<String, Mark> keys = new LinkedHashMap<>();
        for (Map<String, Mark> part : parts) {
            part.forEach((key, mark) -> {
                Mark first = keys.putIfAbsent(key, mark);
                if (first != null) {
                    problems.add(mark, key + " is already set at line " + first.line() + "; a sub-grid sets each"
                            + " key once, counting its zip groups and overrides");
                }
            });
        }
        return keys;
    }

    static Setting[] concat(Setting[] a, Setting[] b) {
        if (a.length == 0) {
            return b;
        }
        Setting[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
