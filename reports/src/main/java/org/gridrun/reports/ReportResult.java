package org.gridrun.reports;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link GridReport#write} wrote.
 *
 * @param index       the HTML page
 * @param figures     every figure file written (PNG and SVG), in the order the page shows them; empty when no
 *                    group has data yet
 * @param experiments the number of experiments reported
 * @param groups      the number of seed groups among them
 * @param table       the group table as plain text (label, seeds, final test accuracy, bits per step), one line
 *                    per group after a header; empty when there are no experiments
 */
public record ReportResult(Path index, List<Path> figures, int experiments, int groups, String table) {
    public ReportResult {
        figures = List.copyOf(figures);
    }
}
