package org.gridrun.reports.paper;

import java.util.List;

/**
 * Where a figure's or table's experiments come from: a grid and some of its named runs.
 *
 * @param grid the grid name, as {@code grid-run --grid} takes it
 * @param runs the runs inside the grid (never empty)
 */
public record SourceSpec(String grid, List<String> runs) {
    public SourceSpec {
        runs = List.copyOf(runs);
    }
}
