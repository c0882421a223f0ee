package org.gridrun.grids;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SLURM's time formats, as {@code --time} takes them: {@code MM}, {@code MM:SS}, {@code HH:MM:SS}, {@code D-HH},
 * {@code D-HH:MM} and {@code D-HH:MM:SS}.
 *
 * <p>Minutes alone (and before seconds) may be any number; where hours are written they are below 24, minutes
 * and seconds below 60, so that a time reads one way only. {@code 300:00:00} is refused with its equivalent,
 * {@code 12-12:00:00}.
 */
final class SlurmTime {
    private static final Pattern TIME = Pattern.compile("(?:(\\d+)-)?(\\d+)(?::(\\d+))?(?::(\\d+))?");
    static final String FORMATS = "MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS";

    private SlurmTime() {
    }

    /** Why {@code text} is not a SLURM time, with the fix where one is clear; empty when it is one. */
    static Optional<String> problem(String text) {
        Matcher m = TIME.matcher(text);
        String rule = "time must be a SLURM time (" + FORMATS + ") with hours below 24 and minutes and seconds below"
                + " 60, found '" + text + "'";
        if (!m.matches()) {
            return Optional.of(rule);
        }
        boolean days = m.group(1) != null;
        boolean hours = days || m.group(4) != null;
        long first = Long.parseLong(m.group(2));
        boolean ok = (!hours || first < 24) && below60(m.group(3), hours || m.group(3) != null)
                && below60(m.group(4), true);
        if (ok) {
            return Optional.empty();
        }
        if (!days && m.group(4) != null && below60(m.group(3), true) && below60(m.group(4), true)) {
            return Optional.of(rule + "; write " + first / 24 + "-" + two(first % 24) + ":" + m.group(3) + ":"
                    + m.group(4));
        }
        return Optional.of(rule);
    }

    private static boolean below60(String digits, boolean bounded) {
        return digits == null || !bounded || Long.parseLong(digits) < 60;
    }

    private static String two(long n) {
        return n < 10 ? "0" + n : Long.toString(n);
    }
}
