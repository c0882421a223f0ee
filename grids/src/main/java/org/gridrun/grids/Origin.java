package org.gridrun.grids;

import org.gridrun.grids.yaml.Mark;

/**
 * Where something was written: a grid file, as given or as an include resolved it, and a place in it.
 *
 * @param file the file's path as shown in messages
 * @param mark the line and column
 */
record Origin(String file, Mark mark) {

    /** {@code file:line:col}, the form of every message's location. */
    @Override
    public String toString() {
        return file + ":" + mark;
    }
}
