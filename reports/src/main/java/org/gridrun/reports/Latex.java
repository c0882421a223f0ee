package org.gridrun.reports;

import java.util.List;

/**
 * LaTeX export of a comparison: a {@code booktabs} tabular (the document loads the booktabs package) whose text cells
 * are escaped, so a group label such as {@code lr=1e-3, method=top_k} compiles as written.
 */
final class Latex {
    private Latex() {
    }

    /** {@code text} with LaTeX's special characters made literal. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '\\' -> out.append("\\textbackslash{}");
                case '&', '%', '$', '#', '_', '{', '}' -> out.append('\\').append(c);
                case '~' -> out.append("\\textasciitilde{}");
                case '^' -> out.append("\\textasciicircum{}");
                case '<' -> out.append("\\textless{}");
                case '>' -> out.append("\\textgreater{}");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * A tabular with left-aligned text columns and right-aligned math columns; {@code header} and the first
     * {@code textColumns} cells of each row are escaped text, the rest are math written as given.
     */
    static String table(List<String> header, int textColumns, List<List<String>> rows) {
        StringBuilder out = new StringBuilder("\\begin{tabular}{")
                .append("l".repeat(textColumns)).append("r".repeat(header.size() - textColumns)).append("}\n")
                .append("\\toprule\n");
        out.append(String.join(" & ", header.stream().map(Latex::escape).toList())).append(" \\\\\n\\midrule\n");
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                out.append(i == 0 ? "" : " & ").append(i < textColumns ? escape(row.get(i)) : row.get(i));
            }
            out.append(" \\\\\n");
        }
        return out.append("\\bottomrule\n\\end{tabular}\n").toString();
    }
}
