package org.gridrun.jobs;

/** Quoting for the bash scripts gridrun writes. */
public final class Shell {
    private Shell() {
    }

    /** {@code text} as one bash word: unchanged when it needs no quoting, else in single quotes. */
    public static String quote(String text) {
        if (!text.isEmpty() && isPlain(text)) {
            return text;
        }
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** Whether every character is one bash leaves alone: letters, digits and {@code _./:=@%+,-}. */
    private static boolean isPlain(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "_./:=@%+,-".indexOf(c) >= 0;
            if (!plain) {
                return false;
            }
        }
        return true;
    }
}
