package org.gridrun.engine.run;

import java.time.Instant;

/**
 * One line of a run directory's {@code status} file: a state, when it was entered, on which host, the scheduler job
 * that carries the attempt, and a free-text detail (an error message, an exit code).
 *
 * <p>The line is tab separated: {@code state, time, host, job, detail}. Lines of four fields (no job), written
 * before the job field existed, still parse.
 *
 * @param state  the state entered
 * @param time   when it was entered
 * @param host   the host that recorded it
 * @param job    the scheduler's job: {@code slurm:<id>} or {@code slurm:<array id>_<task>}, {@code local:<pid>} of
 *               the executor that queued it; empty when the entry does not name one
 * @param detail free text without tabs or line breaks; empty when there is none
 */
public record StatusEntry(RunState state, Instant time, String host, String job, String detail) {

    /** An entry that names no job. */
    public StatusEntry(RunState state, Instant time, String host, String detail) {
        this(state, time, host, "", detail);
    }

    /** The line written to the file, tab separated. */
    String toLine() {
        return state + "\t" + time + "\t" + host + "\t" + clean(job) + "\t" + clean(detail);
    }

    private static String clean(String text) {
        return text.replaceAll("[\\t\\r\\n]+", " ");
    }

    /** Parses one line written by {@link #toLine()}; returns {@code null} for a blank or torn line. */
    static StatusEntry parse(String line) {
        String[] parts = line.split("\t", 5);
        if (parts.length < 3) {
            return null;
        }
        try {
            RunState state = RunState.valueOf(parts[0].trim());
            Instant time = Instant.parse(parts[1]);
            return switch (parts.length) {
                case 5 -> new StatusEntry(state, time, parts[2], parts[3], parts[4]);
                case 4 -> new StatusEntry(state, time, parts[2], "", parts[3]);
                default -> new StatusEntry(state, time, parts[2], "", "");
            };
        } catch (IllegalArgumentException | java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
