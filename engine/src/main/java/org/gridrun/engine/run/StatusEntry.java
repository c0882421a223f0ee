package org.gridrun.engine.run;

import java.time.Instant;

/**
 * One line of a run directory's {@code status} file: a state, when it was entered, on which host, the scheduler job
 * that carries the attempt, and a free-text detail (an error message, an exit code).
 *
 * <p>The line is tab separated: {@code state, time, host, job, detail, crc32}, the last field the
 * {@link LineChecksum} of the line before its last tab, so that a line damaged on disk does not parse. Lines without
 * the checksum (five fields, or four without the job), written before it existed, still parse where the file holds
 * no checked line before them.
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

    /** The line written to the file, tab separated, its checksum last. */
    String toLine() {
        String content = state + "\t" + time + "\t" + host + "\t" + clean(job) + "\t" + clean(detail);
        return content + "\t" + LineChecksum.of(content);
    }

    private static String clean(String text) {
        return text.replaceAll("[\\t\\r\\n]+", " ");
    }

    /**
     * Parses one line written by {@link #toLine()}; returns {@code null} for a blank, torn or damaged line: one whose
     * checksum does not match, one of six fields or more without a checksum (an older line has five at most), or,
     * when {@code checked} (an earlier line had one), any line without a checksum.
     */
    static StatusEntry parse(String line, boolean checked) {
        boolean hasChecksum = hasChecksum(line);
        if (hasChecksum ? !checksumMatches(line) : checked || tabs(line) >= 5) {
            return null;
        }
        String content = hasChecksum ? line.substring(0, line.lastIndexOf('\t')) : line;
        String[] parts = content.split("\t", 5);
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

    /** Whether {@code line} ends in a checksum field: six tab-separated fields, the last eight hex digits. */
    static boolean hasChecksum(String line) {
        int tab = line.lastIndexOf('\t');
        return tabs(line) == 5 && line.length() - tab - 1 == LineChecksum.DIGITS
                && line.substring(tab + 1).chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
    }

    private static long tabs(String line) {
        return line.chars().filter(c -> c == '\t').count();
    }

    private static boolean checksumMatches(String line) {
        int tab = line.lastIndexOf('\t');
        return LineChecksum.of(line.substring(0, tab)).equals(line.substring(tab + 1));
    }
}
