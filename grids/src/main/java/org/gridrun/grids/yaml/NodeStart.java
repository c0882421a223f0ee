package org.gridrun.grids.yaml;

import com.fasterxml.jackson.core.JsonLocation;

/**
 * Reads a node's properties, its anchor ({@code &name}) and tag ({@code !!str}), from the source text where the
 * parser says the node starts, and finds where its content begins.
 *
 * <p>Jackson's {@code YAMLParser} 2.17 reports anchors of mappings and sequences but drops those of scalars, so the
 * reader takes every anchor from the source instead. SnakeYAML places a node's start at its first property; the
 * mark handed out is that of the content after the properties, so that a message points at the value itself.
 * Parser offsets count code points, as do columns; the text is indexed in UTF-16 units, hence the conversion.
 */
final class NodeStart {

    /**
     * A node's anchor and where its content begins.
     *
     * @param anchor the anchor name without {@code &}, or null
     * @param mark   where the content begins
     */
    record Start(String anchor, Mark mark) {
    }

    private final String source;
    private final int codePoints;

    NodeStart(String source) {
        this.source = source;
        this.codePoints = source.codePointCount(0, source.length());
    }

    /** Whether the scalar the parser says starts at {@code location} is quoted or tagged, so never typed. */
    boolean quotedOrTagged(JsonLocation location) {
        long offset = location.getCharOffset();
        if (offset < 0 || offset >= codePoints) {
            return false;
        }
        int i = codePoints == source.length() ? (int) offset : source.offsetByCodePoints(0, (int) offset);
        char c = source.charAt(i);
        return c == '\'' || c == '"' || c == '!';
    }

    Start at(JsonLocation location) {
        int line = location.getLineNr();
        int column = location.getColumnNr();
        long offset = location.getCharOffset();
        if (offset < 0 || offset >= codePoints) {
            return new Start(null, new Mark(line, column));
        }
        int i = codePoints == source.length() ? (int) offset : source.offsetByCodePoints(0, (int) offset);
        String anchor = null;
        while (i < source.length() && (source.charAt(i) == '&' || source.charAt(i) == '!')) {
            int end = propertyEnd(i);
            if (source.charAt(i) == '&') {
                anchor = source.substring(i + 1, end);
            }
            column += source.codePointCount(i, end);
            for (i = end; i < source.length() && isSpaceOrComment(source.charAt(i)); i++) {
                if (source.charAt(i) == '\n') {
                    line++;
                    column = 1;
                } else if (source.charAt(i) == '#') {
                    i = lineEnd(i) - 1;
                } else if (source.charAt(i) != '\r') {
                    column++;
                }
            }
        }
        return new Start(anchor, new Mark(line, column));
    }

    private int propertyEnd(int start) {
        if (source.startsWith("!<", start)) {
            int close = source.indexOf('>', start);
            return close < 0 ? source.length() : close + 1;
        }
        int end = start + 1;
        while (end < source.length() && " \t\r\n,[]{}".indexOf(source.charAt(end)) < 0) {
            end++;
        }
        return end;
    }

    private int lineEnd(int from) {
        int end = from;
        while (end < source.length() && source.charAt(end) != '\n') {
            end++;
        }
        return end;
    }

    private static boolean isSpaceOrComment(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '#';
    }
}
