package org.gridrun.reports.paper;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link PaperFigures#write} produced.
 *
 * @param files    every file written (figures as PNG and SVG, tables as Markdown, CSV and LaTeX)
 * @param tables   the tables, figures' tables first, in spec order
 * @param warnings missing data, each naming the spec file, line and series
 */
public record PaperResult(List<Path> files, List<PaperTable> tables, List<String> warnings) {
    public PaperResult {
        files = List.copyOf(files);
        tables = List.copyOf(tables);
        warnings = List.copyOf(warnings);
    }

    /** Every table as Markdown, separated by blank lines. */
    public String markdown() {
        StringBuilder out = new StringBuilder();
        tables.forEach(t -> out.append(TableFormats.markdown(t)).append('\n'));
        return out.toString();
    }
}
