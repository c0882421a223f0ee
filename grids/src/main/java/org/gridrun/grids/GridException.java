package org.gridrun.grids;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A grid that cannot be found, read, validated or expanded, with every problem found and where it was written.
 *
 * <p>The message is one line per problem, {@code quickstart.yaml:14:9: bits must be an integer, found 'four'},
 * where the file is the path as given to {@link GridFile#load}, or an included file's path as resolved against
 * the file that includes it. A problem that belongs to no place in a file, such as a run name that the file lacks,
 * is the message alone. A caller shows {@link #getMessage()} and needs no stack trace.
 */
public final class GridException extends RuntimeException {

    /**
     * One problem and where it was written.
     *
     * @param file    the grid file as given, or null when the problem is in none
     * @param line    the 1-based line, or 0 when the problem has no place in the file
     * @param column  the 1-based column, or 0 with line 0
     * @param message what is wrong and, where possible, how to fix it
     */
    public record Problem(String file, int line, int column, String message) {

        /** Formats the problem as {@code file:line:col: message}, leaving out what is unknown. */
        @Override
        public String toString() {
            String where = file == null ? "" : line > 0 ? file + ":" + line + ":" + column + ": " : file + ": ";
            return where + message;
        }
    }

    private final List<Problem> problems;

    GridException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a GridException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** A problem with no place in any file. */
    GridException(String message) {
        this(List.of(new Problem(null, 0, 0, message)));
    }

    /** Every problem, ordered by line and column. */
    public List<Problem> problems() {
        return problems;
    }

    /** The file of the first problem as given, or null. */
    public String file() {
        return problems.get(0).file();
    }

    /** The line of the first problem, or 0. */
    public int line() {
        return problems.get(0).line();
    }

    /** The column of the first problem, or 0. */
    public int column() {
        return problems.get(0).column();
    }

    /** The message of the first problem without its location. */
    public String detail() {
        return problems.get(0).message();
    }
}
