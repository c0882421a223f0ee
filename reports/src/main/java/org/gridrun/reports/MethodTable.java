package org.gridrun.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.gridrun.analysis.SeedSummary;
import org.gridrun.engine.train.Headline;

/**
 * The table the index opens with: per seed group (a method and its settings), the final test accuracy (perplexity
 * for language models, the best the lowest) and the final
 * gradient variance, mean ± sd over seeds, the best of each in bold, and beside the numbers the runs that did not
 * complete (FAILED, KILLED, DIVERGED, or still running), so a number from a broken or unfinished run never reads as
 * a result.
 */
final class MethodTable {
    /** The columns after the headline's, whose header follows the rows ({@link GroupRow#headlineHeader}). */
    static final List<String> HEADER_AFTER = List.of("gradient variance (est_var)", "bits sent per step",
            "compression ratio", "state");

    private MethodTable() {
    }

    /** The table of {@code rows} as HTML; every text from the store is escaped. */
    static String render(List<GroupRow> rows) {
        List<Integer> bestResults = new ArrayList<>();
        for (Headline h : Headline.values()) {
            bestResults.add(best(rows, r -> r.headline() == h ? r.result() : SeedSummary.EMPTY,
                    h.higherIsBetter() ? 1 : -1));
        }
        int bestVariance = best(rows, GroupRow::variance, -1);
        StringBuilder out = new StringBuilder("<table class=\"methods\">\n<thead><tr>");
        for (String h : List.of("group", "method", "bits", "seeds", GroupRow.headlineHeader(rows))) {
            out.append(Html.element("th", h));
        }
        HEADER_AFTER.forEach(h -> out.append(Html.element("th", h)));
        out.append("</tr></thead>\n<tbody>\n");
        for (int i = 0; i < rows.size(); i++) {
            GroupRow row = rows.get(i);
            out.append("<tr>");
            for (String text : List.of(row.group().label(), row.method(), row.bits(),
                    String.valueOf(row.group().seeds()))) {
                out.append(Html.element("td", text));
            }
            number(out, row.headlineCell(rows), bestResults.contains(i), row.unsound());
            number(out, Formats.meanStdSci(row.variance()), i == bestVariance, row.unsound());
            number(out, Formats.bits(row.bitsSent().mean()), false, "");
            number(out, Formats.fixed(row.ratio().mean(), 2), false, "");
            out.append(Html.element("td", row.state())).append("</tr>\n");
        }
        return out.append("</tbody>\n</table>\n").toString();
    }

    /** The index of the row with the best mean ({@code sign} 1: highest, -1: lowest), or -1 when none has one. */
    static int best(List<GroupRow> rows, Function<GroupRow, SeedSummary> stat, int sign) {
        int best = -1;
        for (int i = 0; i < rows.size(); i++) {
            double mean = stat.apply(rows.get(i)).mean();
            if (!Double.isNaN(mean) && (best < 0 || sign * mean > sign * stat.apply(rows.get(best)).mean())) {
                best = i;
            }
        }
        return best;
    }

    private static void number(StringBuilder out, String text, boolean bold, String unsound) {
        out.append("<td class=\"num\">");
        String shown = Html.escape(text);
        out.append(bold ? "<strong>" + shown + "</strong>" : shown);
        if (!unsound.isEmpty() && !Formats.MISSING.equals(text)) {
            out.append(" <span class=\"mark\">").append(Html.escape(unsound)).append("</span>");
        }
        out.append("</td>");
    }
}
