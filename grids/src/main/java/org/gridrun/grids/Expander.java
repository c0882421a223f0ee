package org.gridrun.grids;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridrun.grids.yaml.Scalar;

/**
 * Lists a run's experiments: the cartesian product of each sub-grid, last key fastest, sub-grids in order.
 *
 * <p>An experiment whose config hash an earlier one of the run already has is dropped, so identical configs run
 * once; indices and names count the experiments that remain.
 */
final class Expander {
    private Expander() {
    }

    static List<Experiment> expand(String grid, RunSpec run) {
        List<Experiment> experiments = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (List<Axis> axes : run.subGrids()) {
            int[] at = new int[axes.size()];
            do {
                Map<String, Object> params = new LinkedHashMap<>();
                Map<String, String> texts = new LinkedHashMap<>();
                for (int i = 0; i < at.length; i++) {
                    Scalar value = axes.get(i).values().get(at[i]);
                    params.put(axes.get(i).name(), value.value());
                    texts.put(axes.get(i).name(), value.text());
                }
                String id = ConfigHash.id(params);
                if (ids.add(id)) {
                    int index = experiments.size();
                    String name = ExperimentNames.name(run.prefix(), index, texts, run.exclude());
                    experiments.add(new Experiment(grid, run.name(), index, name, id, params, texts));
                }
            } while (advance(at, axes));
        }
        return experiments;
    }

    /** Moves to the next point of the product, last axis fastest; false after the last point. */
    private static boolean advance(int[] at, List<Axis> axes) {
        for (int i = at.length - 1; i >= 0; i--) {
            if (++at[i] < axes.get(i).values().size()) {
                return true;
            }
            at[i] = 0;
        }
        return false;
    }
}
