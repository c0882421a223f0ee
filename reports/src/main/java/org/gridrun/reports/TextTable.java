package org.gridrun.reports;

import java.util.List;
import java.util.Locale;
import org.gridrun.engine.train.Headline;

/**
 * The report's group table as plain text, for the command line: the same rows and numbers as the HTML page.
 */
final class TextTable {
    private TextTable() {
    }

    /**
     * One line per group: label, seeds, final test accuracy (mean ± std, %; perplexity for a language model), final
     * gradient variance ({@code est_var},
     * mean ± std, when measured), bits one worker sends per step, and the state of its experiments, so that a FAILED or DIVERGED experiment's last accuracy never reads as a result.
     */
    static String render(List<GroupRow> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        int width = Math.max(10, rows.stream().mapToInt(r -> r.group().label().length()).max().orElse(10));
        String format = "%-" + width + "s  %5s  %-18s  %-20s  %-22s  %s%n";
        boolean accuracy = rows.stream().anyMatch(r -> r.headline() == Headline.ACCURACY);
        boolean perplexity = rows.stream().anyMatch(r -> r.headline() == Headline.PERPLEXITY);
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, format, "experiment", "seeds",
                accuracy && perplexity ? "test acc. or ppl" : perplexity ? "test perplexity" : "test accuracy",
                "variance (est_var)", "bits/step (one worker)", "state"));
        for (GroupRow row : rows) {
            String result = row.headlineCell(rows);
            boolean percent = row.headline() == Headline.ACCURACY && !Formats.MISSING.equals(result);
            text.append(String.format(Locale.ROOT, format, row.group().label(), row.group().seeds(),
                    percent ? result + " %" : result,
                    Formats.meanStdSci(row.variance()), Formats.bits(row.bitsSent().mean()), row.state()));
        }
        return text.toString();
    }
}
