package org.gridrun.reports;

import java.util.List;

/**
 * Escaping and the few elements the report page is built of.
 */
final class Html {
    private Html() {
    }

    /** {@code text} with the five HTML special characters escaped; null becomes empty. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** An element holding escaped {@code text}. */
    static String element(String tag, String text) {
        return "<" + tag + ">" + escape(text) + "</" + tag + ">";
    }

    /** A table with a header row and body rows; every cell is escaped. */
    static String table(String cssClass, List<String> header, List<List<String>> rows) {
        StringBuilder out = new StringBuilder("<table class=\"" + escape(cssClass) + "\">\n<thead>");
        row(out, "th", header);
        out.append("</thead>\n<tbody>\n");
        rows.forEach(r -> row(out, "td", r));
        return out.append("</tbody>\n</table>\n").toString();
    }

    private static void row(StringBuilder out, String cellTag, List<String> cells) {
        out.append("<tr>");
        cells.forEach(c -> out.append(element(cellTag, c)));
        out.append("</tr>\n");
    }
}
