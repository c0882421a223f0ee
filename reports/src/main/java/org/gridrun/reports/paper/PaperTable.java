package org.gridrun.reports.paper;

import java.util.List;
import java.util.Locale;
import org.gridrun.analysis.SeedSummary;

/**
 * A computed table: a row per series, a cell per column holding the summary over seeds.
 *
 * @param name    the file base name
 * @param title   the caption
 * @param columns the columns (their titles head the table)
 * @param rows    the rows, in spec order
 */
public record PaperTable(String name, String title, List<ColumnSpec> columns, List<Row> rows) {
    public PaperTable {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /**
     * One row: the series label and, per column, the summary over seeds of the runs' values.
     *
     * @param label the series label
     * @param cells one summary per column
     */
    public record Row(String label, List<SeedSummary> cells) {
        public Row {
            cells = List.copyOf(cells);
        }
    }

    /** {@code mean ± sd} of a cell with the column's decimals ({@code -1}: three significant digits). */
    static String meanSd(SeedSummary s, int decimals) {
        if (s.n() == 0 || Double.isNaN(s.mean())) {
            return "—";
        }
        String mean = number(s.mean(), decimals);
        return Double.isNaN(s.std()) ? mean : mean + " ± " + number(s.std(), decimals);
    }

    /** A number with {@code decimals} decimals, or three significant digits when {@code decimals} is negative. */
    static String number(double value, int decimals) {
        if (Double.isNaN(value)) {
            return "";
        }
        return decimals < 0 ? String.format(Locale.ROOT, "%.3g", value)
                : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
