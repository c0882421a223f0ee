package org.gridrun.analysis;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes and reads the flat JSON objects the store keeps for params and configs, keeping key order and value types.
 *
 * <p>Values are the config types of {@link org.gridrun.engine.run.ConfigValues}: a string, a whole number
 * ({@code Long}), a float ({@code Double}, always written with a point or an exponent so it reads back as one), a
 * boolean, or null. Non-finite floats are written as the bare tokens {@code NaN}, {@code Infinity} and
 * {@code -Infinity}, which this reader accepts.
 */
final class FlatJson {
    private FlatJson() {
    }

    /** The JSON text of {@code map}. */
    static String write(Map<String, Object> map) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, Object> entry : map.entrySet()) {
            if (out.length() > 1) {
                out.append(',');
            }
            quote(out, entry.getKey()).append(':');
            value(out, entry.getValue());
        }
        return out.append('}').toString();
    }

    /** The value as the params table stores it: its plain text form, or null. */
    static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }

    /** Reads an object written by {@link #write(Map)}. */
    static Map<String, Object> read(String json) {
        return new Reader(json).object();
    }

    private static void value(StringBuilder out, Object value) {
        if (value instanceof String s) {
            quote(out, s);
        } else {
            out.append(value);
        }
    }

    private static StringBuilder quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    /** A reader of one flat object. */
    private static final class Reader {
        private final String text;
        private int pos;

        Reader(String text) {
            this.text = text;
        }

        Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            expect('{');
            if (peek() == '}') {
                pos++;
                return map;
            }
            do {
                String key = string();
                expect(':');
                map.put(key, scalar());
            } while (consume(','));
            expect('}');
            return map;
        }

        private Object scalar() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            int start = pos;
            while (pos < text.length() && ",}".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
            return token(text.substring(start, pos).trim());
        }

        private Object token(String token) {
            switch (token) {
                case "null": return null;
                case "true": return Boolean.TRUE;
                case "false": return Boolean.FALSE;
                default: break;
            }
            try {
                boolean whole = token.chars().allMatch(ch -> ch == '-' || Character.isDigit(ch));
                return whole ? (Object) Long.parseLong(token) : (Object) Double.parseDouble(token);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad JSON value '" + token + "' at " + pos + " in " + text, e);
            }
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            for (char c = text.charAt(pos++); c != '"'; c = text.charAt(pos++)) {
                out.append(c == '\\' ? escape() : c);
            }
            return out.toString();
        }

        private char escape() {
            char c = text.charAt(pos++);
            switch (c) {
                case 'n': return '\n';
                case 'r': return '\r';
                case 't': return '\t';
                case 'u':
                    pos += 4;
                    return (char) Integer.parseInt(text.substring(pos - 4, pos), 16);
                default: return c;
            }
        }

        private char peek() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
            if (pos >= text.length()) {
                throw new IllegalArgumentException("JSON text ends early: " + text);
            }
            return text.charAt(pos);
        }

        private boolean consume(char c) {
            if (peek() == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!consume(c)) {
                throw new IllegalArgumentException("expected '" + c + "' at " + pos + " in " + text);
            }
        }
    }
}
