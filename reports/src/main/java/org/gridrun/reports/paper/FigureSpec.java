package org.gridrun.reports.paper;

import java.util.List;

/**
 * One figure of a spec: a metric of a grid's runs against the iteration, one line per series in legend order.
 *
 * @param name    the file base name ({@code <name>.png}, {@code <name>.svg}) and the table's name
 * @param title   the chart title
 * @param source  the grid and runs whose experiments are drawn
 * @param metric  the metric drawn, e.g. {@code est_var}
 * @param yLabel  the y-axis title
 * @param logY    whether the y axis is logarithmic
 * @param yLimits the y-axis range {@code [min, max]}, or null to fit the data
 * @param lrDrops iterations of the dashed learning-rate-drop lines, or null to read them from the experiments'
 *                {@code lr_decay_iters}
 * @param series  the lines, in legend order
 * @param table   whether to write the figure's table (mean ± sd over seeds of the mean of the last evaluations)
 * @param line    the spec file line of the figure
 */
public record FigureSpec(String name, String title, SourceSpec source, String metric, String yLabel, boolean logY,
                         double[] yLimits, List<Long> lrDrops, List<SeriesSpec> series, boolean table, int line) {
    public FigureSpec {
        series = List.copyOf(series);
        lrDrops = lrDrops == null ? null : List.copyOf(lrDrops);
    }
}
