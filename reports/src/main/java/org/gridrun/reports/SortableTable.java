package org.gridrun.reports;

import java.util.List;

/**
 * An HTML table that the page's script ({@code table.js}) sorts by a click on a header and filters by a text box
 * per column and a global one; number cells carry their value in {@code data-v}, so they sort as numbers.
 *
 * <p>A column filter matches cells that contain its text (any case), or for a number column a comparison such as
 * {@code >0.9} or {@code <=2}; the global filter matches rows where any cell contains its text.
 */
final class SortableTable {
    private SortableTable() {
    }

    /** The filter box, the table with id {@code id}, and a line counting the rows shown. */
    static String render(String id, List<String> header, List<List<Cell>> rows) {
        String eid = Html.escape(id);
        StringBuilder out = new StringBuilder()
                .append("<p><label>filter <input type=\"search\" id=\"").append(eid)
                .append("-filter\" placeholder=\"any column\"></label> <span id=\"").append(eid)
                .append("-count\" class=\"meta\">").append(rows.size()).append(" of ").append(rows.size())
                .append("</span></p>\n")
                .append("<table class=\"sortable\" id=\"").append(eid).append("\">\n<thead>\n<tr>");
        header.forEach(h -> out.append("<th title=\"sort\">").append(Html.escape(h)).append("</th>"));
        out.append("</tr>\n<tr class=\"filters\">");
        header.forEach(h -> out.append("<th><input type=\"search\" aria-label=\"filter ").append(Html.escape(h))
                .append("\"></th>"));
        out.append("</tr>\n</thead>\n<tbody>\n");
        for (List<Cell> row : rows) {
            out.append("<tr>");
            row.forEach(c -> cell(out, c));
            out.append("</tr>\n");
        }
        return out.append("</tbody>\n</table>\n").toString();
    }

    private static void cell(StringBuilder out, Cell cell) {
        out.append("<td");
        if (cell.number() != null) {
            out.append(" class=\"num\" data-v=\"").append(cell.number().isNaN() ? "NaN" : cell.number().toString())
                    .append('"');
        }
        out.append('>');
        if (cell.href() != null) {
            out.append("<a href=\"").append(Html.escape(cell.href())).append("\">").append(Html.escape(cell.text()))
                    .append("</a>");
        } else {
            out.append(Html.escape(cell.text()));
        }
        out.append("</td>");
    }
}
