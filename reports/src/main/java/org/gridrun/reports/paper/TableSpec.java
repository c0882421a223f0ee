package org.gridrun.reports.paper;

import java.util.List;

/**
 * One table of a spec: a row per series, a column per {@link ColumnSpec}.
 *
 * @param name      the file base name ({@code <name>.csv}, {@code <name>.tex})
 * @param title     the caption
 * @param source    the grid and runs
 * @param rows      the rows, in order
 * @param columns   the columns, in order
 * @param trainSize training examples per epoch, for per-epoch columns (0 when none is per epoch)
 * @param line      the spec file line of the table
 */
public record TableSpec(String name, String title, SourceSpec source, List<SeriesSpec> rows, List<ColumnSpec> columns,
                        int trainSize, int line) {
    public TableSpec {
        rows = List.copyOf(rows);
        columns = List.copyOf(columns);
    }
}
