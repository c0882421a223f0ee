package org.gridrun.grids;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.grids.yaml.Mark;
import org.gridrun.grids.yaml.YamlProblem;

/**
 * Collects the problems of one grid file so that all of them are reported at once.
 *
 * <p>The first problem found at a place wins: a later one at the same line and column is a consequence (an
 * undefined alias read as null, a shared block checked once per run that merges it) and would only repeat it.
 */
final class ProblemList {
    private final String file;
    private final Map<Mark, String> problems = new LinkedHashMap<>();

    ProblemList(String file) {
        this.file = file;
    }

    void add(Mark mark, String message) {
        problems.putIfAbsent(mark, message);
    }

    void addAll(List<YamlProblem> found) {
        found.forEach(p -> add(p.mark(), p.message()));
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    /** Throws a {@link GridException} with every problem, ordered by place, if there is any. */
    void throwIfAny() {
        if (problems.isEmpty()) {
            return;
        }
        List<GridException.Problem> sorted = new ArrayList<>();
        problems.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparingInt(Mark::line).thenComparingInt(Mark::column)))
                .forEach(e -> sorted.add(new GridException.Problem(file, e.getKey().line(), e.getKey().column(),
                        e.getValue())));
        throw new GridException(sorted);
    }
}
