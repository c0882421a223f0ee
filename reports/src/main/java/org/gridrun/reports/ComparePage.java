package org.gridrun.reports;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.analysis.SeedSummary;

/**
 * Renders the comparison of seed groups on one metric: {@code compare/<metric>.html} (the figure and a sortable
 * table), {@code .csv} (the same table at full precision) and {@code .tex} (mean ± std, booktabs).
 */
final class ComparePage {
    static final String NO_FIGURE = "no finite values to draw";
    /** What the {@code best} column says for the best group. */
    static final String BEST = "best";
    private static final List<String> HEADER = List.of("group", "best", "seeds", "non-finite", "mean", "std",
            "95% CI ±", "Welch t vs best", "Welch df", "p vs best");

    private ComparePage() {
    }

    /**
     * The page of {@code comparison}, whose files are named {@code slug}; {@code drawn} says whether its figure was.
     */
    static String html(String grid, GroupComparison comparison, String slug, boolean drawn) {
        String metric = comparison.metric();
        StringBuilder body = new StringBuilder("<p><a href=\"../index.html\">← ").append(Html.escape(grid))
                .append("</a></p>\n<p class=\"meta\">")
                .append(Html.escape("the mean of each run's last " + ExperimentSummary.LAST_K + " values, over seeds; "
                        + (GroupComparison.higherIsBetter(metric) ? "higher" : "lower") + " is better; "
                        + "Welch's t-test of each group against the best"))
                .append("</p>\n");
        body.append(drawn ? SitePage.figure(slug, metric + ": mean over seeds (a 95% CI band from 3 seeds)")
                : "<p class=\"empty\">" + NO_FIGURE + "</p>\n");
        body.append(SortableTable.render("groups", HEADER, rows(comparison)));
        body.append("<p>").append(export(slug, "csv", "CSV")).append(" · ").append(export(slug, "tex", "LaTeX"))
                .append("</p>\n");
        return SitePage.render(grid + " — " + metric, body.toString(), true, "../");
    }

    /** The table as CSV. */
    static String csv(GroupComparison comparison) {
        return Csv.render(HEADER, rows(comparison).stream().map(r -> r.stream().map(Cell::csv).toList()).toList());
    }

    /** The table as a booktabs tabular: group, seeds and mean ± std, the best group in bold. */
    static String latex(GroupComparison comparison) {
        List<List<String>> rows = new ArrayList<>();
        for (GroupComparison.Row row : comparison.rows()) {
            rows.add(List.of(row.group().label(), String.valueOf(row.values().length), meanStd(row)));
        }
        return "% " + Latex.escape(comparison.metric()) + ": mean ± std over seeds of each run's mean of its last "
                + ExperimentSummary.LAST_K + " values; seeds counts finite runs only; best in bold\n"
                + Latex.table(List.of("group", "best", "seeds", Latex.escape(comparison.metric())), 1, rows);
    }

    private static String meanStd(GroupComparison.Row row) {
        SeedSummary s = row.summary();
        if (s.n() == 0) {
            return "--";
        }
        String mean = Formats.number(s.mean());
        String value = Double.isNaN(s.std()) ? mean : mean + " \\pm " + Formats.number(s.std());
        return row.best() ? "$\\mathbf{" + value + "}$" : "$" + value + "$";
    }

    private static List<List<Cell>> rows(GroupComparison comparison) {
        List<List<Cell>> rows = new ArrayList<>();
        for (GroupComparison.Row row : comparison.rows()) {
            SeedSummary s = row.summary();
            boolean tested = row.vsBest() != null;
            rows.add(List.of(Cell.text(row.group().label()), Cell.text(row.best() ? BEST : ""),
                    Cell.number(row.values().length + row.nonFinite()), Cell.number(row.nonFinite()),
                    Cell.measured(s.mean(), s.n() > 0), Cell.measured(s.std(), s.n() > 1),
                    Cell.measured(s.halfWidth95(), s.n() > 1), Cell.measured(tested ? row.vsBest().t() : 0, tested),
                    Cell.measured(tested ? row.vsBest().degreesOfFreedom() : 0, tested),
                    Cell.measured(tested ? row.vsBest().pValue() : 0, tested)));
        }
        return rows;
    }

    private static String export(String slug, String extension, String label) {
        return "<a href=\"" + Html.escape(slug) + "." + extension + "\">" + label + "</a>";
    }
}
