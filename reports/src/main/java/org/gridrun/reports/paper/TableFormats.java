package org.gridrun.reports.paper;

import org.gridrun.analysis.SeedSummary;

/**
 * A {@link PaperTable} as Markdown (printed), CSV (mean, sd and n per column, for plotting elsewhere) and LaTeX
 * (a {@code tabular} with {@code $\pm$}, for the paper).
 */
final class TableFormats {
    private TableFormats() {
    }

    static String markdown(PaperTable table) {
        StringBuilder out = new StringBuilder("**").append(table.title()).append("**\n\n| series |");
        table.columns().forEach(c -> out.append(' ').append(c.title()).append(" |"));
        out.append("\n|---|");
        table.columns().forEach(c -> out.append("---:|"));
        out.append('\n');
        for (PaperTable.Row row : table.rows()) {
            out.append("| ").append(row.label()).append(" |");
            for (int i = 0; i < row.cells().size(); i++) {
                out.append(' ').append(PaperTable.meanSd(row.cells().get(i), table.columns().get(i).decimals()))
                        .append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }

    static String csv(PaperTable table) {
        StringBuilder out = new StringBuilder("series");
        table.columns().forEach(c -> out.append(',').append(quote(c.title() + " mean")).append(',')
                .append(quote(c.title() + " sd")).append(',').append(quote(c.title() + " n")));
        out.append('\n');
        for (PaperTable.Row row : table.rows()) {
            out.append(quote(row.label()));
            for (SeedSummary s : row.cells()) {
                out.append(',').append(PaperTable.number(s.mean(), 6)).append(',')
                        .append(PaperTable.number(s.std(), 6)).append(',').append(s.n());
            }
            out.append('\n');
        }
        return out.toString();
    }

    static String latex(PaperTable table) {
        StringBuilder out = new StringBuilder("% ").append(table.title()).append('\n')
                .append("\\begin{tabular}{l").append("r".repeat(table.columns().size())).append("}\n\\hline\n")
                .append("Method");
        table.columns().forEach(c -> out.append(" & ").append(tex(c.title())));
        out.append(" \\\\\n\\hline\n");
        for (PaperTable.Row row : table.rows()) {
            out.append(tex(row.label()));
            for (int i = 0; i < row.cells().size(); i++) {
                String cell = PaperTable.meanSd(row.cells().get(i), table.columns().get(i).decimals());
                out.append(" & ").append(cell.equals("—") ? "--" : "$" + cell.replace("±", "\\pm") + "$");
            }
            out.append(" \\\\\n");
        }
        return out.append("\\hline\n\\end{tabular}\n").toString();
    }

    private static String quote(String text) {
        return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }

    private static String tex(String text) {
        return text.replace("\\", "\\textbackslash{}").replace("&", "\\&").replace("%", "\\%").replace("_", "\\_")
                .replace("#", "\\#").replace("$", "\\$");
    }
}
