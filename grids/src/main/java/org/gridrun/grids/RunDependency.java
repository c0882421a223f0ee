package org.gridrun.grids;

import java.util.List;

/** TEMPORARY stand-in until the grids-lang branch lands (same signature). */
public record RunDependency(String run, List<String> match) {
}
