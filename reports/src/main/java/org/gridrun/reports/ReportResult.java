package org.gridrun.reports;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link GridReport#write} wrote.
 *
 * @param index       the site's index page
 * @param experiments the number of experiments reported (one page each)
 * @param groups      the number of seed groups among them
 * @param comparisons the number of comparison pages (one per metric)
 * @param changed     how many files were written because they were new or different
 * @param removed     the files of an earlier report that no page needs now and were removed, relative paths
 * @param table       the group table as plain text (label, seeds, final test accuracy, bits per step), one line
 *                    per group after a header; empty when there are no experiments
 */
public record ReportResult(Path index, int experiments, int groups, int comparisons, int changed,
                           List<String> removed, String table) {
    public ReportResult {
        removed = List.copyOf(removed);
    }
}
