package org.gridrun.grids;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Lists a run's experiments: the cartesian product of each sub-grid, last axis fastest, sub-grids in order.
 *
 * <p>An experiment whose config an earlier one of the run already has is dropped ({@link DistinctConfigs}), so
 * identical configs run once; indices and names count the experiments that remain. Experiments share their
 * settings: each holds one array of references, its maps are views of it, its id is hashed when asked for.
 */
final class Expander {
    private Expander() {
    }

    static List<Experiment> expand(String grid, RunSpec run) {
        List<Experiment> experiments = new ArrayList<>();
        DistinctConfigs configs = new DistinctConfigs();
        String prefix = ExperimentNames.safe(run.prefix());
        boolean single = run.subGrids().size() == 1;
        for (SubGrid sub : run.subGrids()) {
            Setting[][][] axes = sub.axes().stream()
                    .map(axis -> axis.points().toArray(Setting[][]::new)).toArray(Setting[][][]::new);
            boolean check = !(single && configs.allDistinct(sub));
            int[] at = new int[axes.length];
            do {
                Setting[] settings = sub.overlapping() ? resolved(axes, at, sub.levels()) : joined(axes, at);
                if (!check || configs.add(settings)) {
                    int index = experiments.size();
                    String name = ExperimentNames.name(prefix, index, settings, run.exclude());
                    experiments.add(Experiment.of(grid, run.name(), index, name, settings));
                }
            } while (advance(at, axes));
        }
        return experiments;
    }

    /** The settings of the current point, axis after axis. */
    private static Setting[] joined(Setting[][][] axes, int[] at) {
        int size = 0;
        for (int i = 0; i < at.length; i++) {
            size += axes[i][at[i]].length;
        }
        Setting[] settings = new Setting[size];
        int n = 0;
        for (int i = 0; i < at.length; i++) {
            Setting[] point = axes[i][at[i]];
            System.arraycopy(point, 0, settings, n, point.length);
            n += point.length;
        }
        return settings;
    }

    /** The settings of the current point where axes may set the same key: higher level wins, first place kept. */
    private static Setting[] resolved(Setting[][][] axes, int[] at, int[] levels) {
        Setting[] settings = joined(axes, at);
        int[] settingLevels = new int[settings.length];
        int n = 0;
        int from = 0;
        for (int i = 0; i < at.length; i++) {
            for (int end = from + axes[i][at[i]].length; from < end; from++) {
                Setting setting = settings[from];
                int same = indexOf(settings, n, setting.key());
                if (same < 0) {
                    settings[n] = setting;
                    settingLevels[n++] = levels[i];
                } else if (levels[i] >= settingLevels[same]) {
                    settings[same] = setting;
                    settingLevels[same] = levels[i];
                }
            }
        }
        return Arrays.copyOf(settings, n);
    }

    private static int indexOf(Setting[] settings, int size, String key) {
        for (int i = 0; i < size; i++) {
            if (settings[i].key().equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /** Moves to the next point of the product, last axis fastest; false after the last point. */
    private static boolean advance(int[] at, Setting[][][] axes) {
        for (int i = at.length - 1; i >= 0; i--) {
            if (++at[i] < axes[i].length) {
                return true;
            }
            at[i] = 0;
        }
        return false;
    }
}
