package org.gridrun.reports.paper;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of a spec file's YAML tree with the line and column where it starts, so a bad value can be named at
 * {@code file:line:col}.
 */
sealed interface SpecNode {
    /** The 1-based line of the node. */
    int line();

    /** The 1-based column of the node. */
    int column();

    /** What the node is, for messages: {@code a mapping}, {@code a list}, {@code 'abc'}. */
    String describe();

    /** A mapping, its keys in file order; each key's node is kept for its position. */
    record MapNode(int line, int column, Map<String, SpecNode> entries, Map<String, Scalar> keys)
            implements SpecNode {
        public MapNode {
            entries = new LinkedHashMap<>(entries);
            keys = new LinkedHashMap<>(keys);
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    /** A sequence. */
    record ListNode(int line, int column, List<SpecNode> items) implements SpecNode {
        public ListNode {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a list";
        }
    }

    /** A scalar, as written (null for YAML's null). */
    record Scalar(int line, int column, String text) implements SpecNode {
        @Override
        public String describe() {
            if (text == null) {
                return "null";
            }
            String line = text.replaceAll("\\R", " ");
            return "'" + (line.length() > 60 ? line.substring(0, 60) + "…" : line) + "'";
        }
    }
}
