package org.gridrun.reports;

/**
 * One cell of a sortable table: its text, an optional link, and the number it sorts by.
 *
 * @param text   what the cell shows (escaped when rendered)
 * @param href   the page it links to, relative; null for none
 * @param number the value it sorts and filters by numerically; null for a text cell, {@code NaN} sorts last
 */
record Cell(String text, String href, Double number) {
    /** A plain text cell. */
    static Cell text(String text) {
        return new Cell(text, null, null);
    }

    /** A text cell linking to {@code href}. */
    static Cell link(String text, String href) {
        return new Cell(text, href, null);
    }

    /** A number cell showing {@code value} as {@link Formats#number} writes it. */
    static Cell number(double value) {
        return new Cell(Formats.number(value), null, value);
    }

    /** A number cell for the summary of a series that may be empty: {@link Formats#MISSING} when it is. */
    static Cell measured(double value, boolean present) {
        return present ? number(value) : new Cell(Formats.MISSING, null, Double.NaN);
    }

    /** The cell as it goes into a CSV file: a number at full precision, empty when missing; else the text. */
    String csv() {
        if (number == null) {
            return text;
        }
        if (Formats.MISSING.equals(text)) {
            return "";
        }
        return number == Math.rint(number) && Math.abs(number) < 1e15 ? Long.toString(number.longValue())
                : Double.toString(number);
    }
}
