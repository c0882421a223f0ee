package org.gridrun.grids;

import java.nio.file.Path;
import org.gridrun.grids.yaml.Mapping;

/**
 * One grid file read: the loaded file itself or one it includes.
 *
 * @param path     the file as given or as its include resolved it
 * @param top      its top-level mapping
 * @param problems where its problems go, naming it
 */
record Source(Path path, Mapping top, ProblemList problems) {
}
