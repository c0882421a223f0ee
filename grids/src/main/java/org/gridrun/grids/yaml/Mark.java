package org.gridrun.grids.yaml;

/**
 * A position in a YAML source, as a person counts it: line and column both start at 1.
 *
 * @param line   the 1-based line
 * @param column the 1-based column
 */
public record Mark(int line, int column) {

    /** Formats the mark as {@code line:column}, the form used after a file name in messages. */
    @Override
    public String toString() {
        return line + ":" + column;
    }
}
