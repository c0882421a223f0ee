package org.gridrun.reports;

import java.util.List;

/**
 * CSV export of the site's tables (RFC 4180): comma separated, {@code \n} line ends, and a field quoted with
 * {@code "} (inner quotes doubled) when it holds a comma, a quote, a line break or leading or trailing space.
 */
final class Csv {
    private Csv() {
    }

    /** The table as CSV, header first. */
    static String render(List<String> header, List<List<String>> rows) {
        StringBuilder out = new StringBuilder();
        line(out, header);
        rows.forEach(r -> line(out, r));
        return out.toString();
    }

    /** One field, quoted when it must be. */
    static String field(String value) {
        String v = value == null ? "" : value;
        boolean quote = v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")
                || !v.equals(v.strip());
        return quote ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }

    private static void line(StringBuilder out, List<String> fields) {
        for (int i = 0; i < fields.size(); i++) {
            out.append(i == 0 ? "" : ",").append(field(fields.get(i)));
        }
        out.append('\n');
    }
}
