package org.gridrun.grids.yaml;

/**
 * A scalar as the researcher wrote it and as YAML types it.
 *
 * <p>{@code value} is a {@code Long}, {@code Double}, {@code Boolean}, {@code String}, or {@code null} for YAML's
 * null ({@code ~}, {@code null} or nothing at all). Typing follows Jackson's YAML parser, which follows YAML 1.1:
 * {@code 0.0001} and {@code 1e-4} are both the {@code Double} 1.0E-4, {@code yes} and {@code on} are
 * {@code Boolean.TRUE}, quoted text is always a {@code String}. {@code text} is the scalar's content as written,
 * without quotes: {@code 0.0001} stays {@code "0.0001"}.
 *
 * @param value the typed value, or null
 * @param text  the source text of the value
 * @param mark  where the scalar starts
 */
public record Scalar(Object value, String text, Mark mark) implements Node {

    /** Whether YAML read this scalar as null. */
    public boolean isNull() {
        return value == null;
    }

    /** The longest text {@link #describe()} quotes whole; a longer one is cut there and ends in an ellipsis. */
    static final int QUOTED_CHARS = 80;

    @Override
    public String describe() {
        if (value == null) {
            return "nothing";
        }
        String shown = text.length() <= QUOTED_CHARS ? text : text.substring(0, QUOTED_CHARS) + "…";
        return "'" + shown.replace('\n', ' ') + "'";
    }
}
