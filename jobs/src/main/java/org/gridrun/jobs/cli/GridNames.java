package org.gridrun.jobs.cli;

import org.gridrun.grids.GridException;
import org.gridrun.grids.GridFile;
import org.gridrun.jobs.Workspace;

/**
 * The name under which a grid's runs and results are kept, from a {@code --grid} argument taken as
 * {@code grid-run --grid} takes it: a name under {@code grids/}, or a path to a YAML file.
 */
final class GridNames {
    private GridNames() {
    }

    /**
     * The grid's name: the base name of the file {@code gridArg} names; a bare name whose file is gone (its runs
     * and results remain) names itself.
     *
     * @throws GridException when {@code gridArg} is a path, or ends in {@code .yaml}, and names no file
     */
    static String of(String gridArg, Workspace workspace) {
        try {
            return GridFile.nameOf(GridFile.resolve(gridArg, workspace.gridsDir()));
        } catch (GridException noFile) {
            if (gridArg.contains("/") || gridArg.contains("\\") || gridArg.endsWith(".yaml")) {
                throw noFile;
            }
            return gridArg;
        }
    }
}
