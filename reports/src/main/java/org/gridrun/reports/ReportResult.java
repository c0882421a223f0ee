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
 */
public record ReportResult(Path index, List<Path> figures, int experiments, int groups) {
    public ReportResult {
        figures = List.copyOf(figures);
    }
}
