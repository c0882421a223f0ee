package org.gridrun.grids;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code defaults:} of a grid file and the files it includes, and how they merge under a sub-grid.
 *
 * <p>Files are added from the most included to the including one; a later file's axis replaces an earlier one of
 * the same key in place, and its other axes follow. Under a sub-grid the defaults come first: a sub-grid's axis of
 * the same key replaces a default's axis in place (overrides and all), and the sub-grid's other axes follow in
 * their order. A zip group of the defaults is never replaced as a whole; where a sub-grid sets one of its keys (or a
 * default's override key), the sub-grid's value wins for each experiment, in the default's place. A run's seeds
 * replace a default {@code seed} and come last.
 */
final class Defaults {
    private final List<Axis> axes = new ArrayList<>();
    private final List<Integer> levels = new ArrayList<>();

    /** Adds one file's defaults, with precedence {@code level} over every file added before. */
    void add(List<Axis> fileDefaults, int level) {
        for (Axis axis : fileDefaults) {
            int at = axis.mainKey() == null ? -1 : indexOf(axis.mainKey());
            if (at < 0) {
                axes.add(axis);
                levels.add(level);
            } else {
                axes.set(at, axis);
                levels.set(at, level);
            }
        }
    }

    /**
     * The sub-grid of {@code own} axes with these defaults under it and {@code seeds} last.
     *
     * <p>A key the sub-grid sets itself while the run has seeds is a problem: {@code seed} is then the seeds'.
     */
    SubGrid under(List<Axis> own, Optional<Axis> seeds, ProblemList problems) {
        Map<String, Axis> ownByKey = new HashMap<>();
        own.stream().filter(a -> a.mainKey() != null).forEach(a -> ownByKey.put(a.mainKey(), a));
        List<Axis> merged = new ArrayList<>();
        List<Integer> mergedLevels = new ArrayList<>();
        Set<Axis> placed = new HashSet<>();
        for (int i = 0; i < axes.size(); i++) {
            Axis axis = axes.get(i);
            Axis replacement = axis.mainKey() == null ? null : ownByKey.get(axis.mainKey());
            if (replacement != null) {
                merged.add(replacement);
                mergedLevels.add(SubGrid.OWN);
                placed.add(replacement);
            } else if (!(seeds.isPresent() && SeedAxis.KEY.equals(axis.mainKey()))) {
                merged.add(axis);
                mergedLevels.add(levels.get(i));
            }
        }
        for (Axis axis : own) {
            if (!placed.contains(axis)) {
                merged.add(axis);
                mergedLevels.add(SubGrid.OWN);
            }
        }
        seeds.ifPresent(seed -> {
            own.forEach(axis -> Optional.ofNullable(axis.keys().get(SeedAxis.KEY)).ifPresent(mark -> problems.add(
                    mark, "seed is also set by 'seeds:' at line " + seed.key().mark().line() + "; keep one of them")));
            merged.add(seed);
            mergedLevels.add(SubGrid.SEEDS);
        });
        return new SubGrid(merged, mergedLevels.stream().mapToInt(Integer::intValue).toArray(), overlapping(merged));
    }

    private int indexOf(String key) {
        for (int i = 0; i < axes.size(); i++) {
            if (key.equals(axes.get(i).mainKey())) {
                return i;
            }
        }
        return -1;
    }

    private static boolean overlapping(List<Axis> axes) {
        Set<String> seen = new HashSet<>();
        for (Axis axis : axes) {
            for (String key : axis.keys().keySet()) {
                if (!seen.add(key)) {
                    return true;
                }
            }
        }
        return false;
    }
}
