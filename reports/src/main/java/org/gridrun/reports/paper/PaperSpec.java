package org.gridrun.reports.paper;

import java.util.List;

/**
 * A spec file: the figures and tables to regenerate, all from one results store.
 *
 * @param file    the file as messages name it, e.g. {@code figures/nuq.yaml}
 * @param name    the file name without {@code .yaml}: the default output folder's name
 * @param last    how many of the last evaluations a run's table value averages (the papers use 5)
 * @param figures the figures, in file order
 * @param tables  the tables, in file order (a figure's own table is not among them)
 */
public record PaperSpec(String file, String name, int last, List<FigureSpec> figures, List<TableSpec> tables) {
    public PaperSpec {
        figures = List.copyOf(figures);
        tables = List.copyOf(tables);
    }
}
