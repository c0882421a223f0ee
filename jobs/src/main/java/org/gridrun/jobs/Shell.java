package org.gridrun.jobs;

import java.util.regex.Pattern;

/** Quoting for the bash scripts gridrun writes. */
public final class Shell {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

    private Shell() {
    }

    /** {@code text} as one bash word: unchanged when it needs no quoting, else in single quotes. */
    public static String quote(String text) {
        if (!text.isEmpty() && PLAIN.matcher(text).matches()) {
            return text;
        }
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
