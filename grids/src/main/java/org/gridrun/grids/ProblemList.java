package org.gridrun.grids;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.grids.yaml.Mark;
import org.gridrun.grids.yaml.YamlProblem;

/**
 * Collects the problems of a grid file and the files it includes, so that all of them are reported at once.
 *
 * <p>Each instance adds problems to one file; {@link #in} gives the list for another file, sharing the report. The
 * report orders problems by file, in the order the files were first named, then by line and column. The first
 * problem found at a place wins: a later one at the same line and column is a consequence (an undefined alias read
 * as null, a shared block checked once per run that merges it) and would only repeat it.
 */
final class ProblemList {
    private final String file;
    private final Report report;

    /** A new report whose first file is {@code file}. */
    ProblemList(String file) {
        this(file, new Report());
    }

    private ProblemList(String file, Report report) {
        this.file = file;
        this.report = report;
        report.files.putIfAbsent(file, report.files.size());
    }

    /** The list for problems of {@code otherFile}, reported together with this one's. */
    ProblemList in(String otherFile) {
        return new ProblemList(otherFile, report);
    }

    /** The file this list's problems are in, as messages show it. */
    String file() {
        return file;
    }

    /** Where {@code mark} is in this list's file. */
    Origin origin(Mark mark) {
        return new Origin(file, mark);
    }

    void add(Mark mark, String message) {
        report.problems.putIfAbsent(new Place(file, mark), message);
    }

    void addAll(List<YamlProblem> found) {
        found.forEach(p -> add(p.mark(), p.message()));
    }

    /** Whether no file of the report has a problem. */
    boolean isEmpty() {
        return report.problems.isEmpty();
    }

    /** Throws a {@link GridException} with every problem of every file, ordered by place, if there is any. */
    void throwIfAny() {
        if (report.problems.isEmpty()) {
            return;
        }
        List<GridException.Problem> sorted = new ArrayList<>();
        report.problems.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparingInt((Place p) -> report.files.get(p.file()))
                        .thenComparingInt(p -> p.mark().line()).thenComparingInt(p -> p.mark().column())))
                .forEach(e -> sorted.add(new GridException.Problem(e.getKey().file(), e.getKey().mark().line(),
                        e.getKey().mark().column(), e.getValue())));
        throw new GridException(sorted);
    }

    private record Place(String file, Mark mark) {
    }

    /** What the lists of one load share: the files in order and the problems found. */
    private static final class Report {
        private final Map<String, Integer> files = new LinkedHashMap<>();
        private final Map<Place, String> problems = new LinkedHashMap<>();
    }
}
