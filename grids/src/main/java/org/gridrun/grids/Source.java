package org.gridrun.grids;

import org.gridrun.grids.yaml.Mapping;

/**
 * One grid file read: the loaded file itself or one it includes.
 *
 * @param top      its top-level mapping
 * @param problems where its problems go, naming the file as given or as its include resolved it
 */
record Source(Mapping top, ProblemList problems) {
}
