package org.gridrun.engine.run;

import java.time.Instant;

/**
 * One line of a run directory's {@code status} file: a state, when it was entered, on which host, and a free-text
 * detail (an error message, an exit code, a scheduler job id).
 *
 * @param state  the state entered
 * @param time   when it was entered
 * @param host   the host that recorded it
 * @param detail free text without tabs or line breaks; empty when there is none
 */
public record StatusEntry(RunState state, Instant time, String host, String detail) {

    /** The line written to the file, tab separated. */
    String toLine() {
        return state + "\t" + time + "\t" + host + "\t" + detail.replaceAll("[\\t\\r\\n]+", " ");
    }

    /** Parses one line written by {@link #toLine()}; returns {@code null} for a blank or torn line. */
    static StatusEntry parse(String line) {
        String[] parts = line.split("\t", 4);
        if (parts.length < 3) {
            return null;
        }
        try {
            return new StatusEntry(RunState.valueOf(parts[0].trim()), Instant.parse(parts[1]), parts[2],
                    parts.length == 4 ? parts[3] : "");
        } catch (IllegalArgumentException | java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
