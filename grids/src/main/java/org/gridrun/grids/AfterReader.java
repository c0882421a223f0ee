package org.gridrun.grids;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads a run's {@code after:}: a run name, {@code {run: name, match: [keys]}}, or a list of these.
 *
 * <p>{@link #read} checks the form and the match keys against the schema; {@link #check} checks, once every run
 * of the grid and its includes is known, that each run named exists, is not the run itself nor named twice, and
 * that both runs set every match key; {@link #circles} finds runs that wait for each other.
 */
final class AfterReader {
    static final List<String> FIELDS = List.of("run", "match");

    /**
     * One dependency as written.
     *
     * @param run   the run name as written
     * @param match the match keys as written
     */
    record After(Scalar run, List<Scalar> match) {

        RunDependency dependency() {
            return new RunDependency(run.text(), match.stream().map(Scalar::text).toList());
        }
    }

    private final KeyCheck keys;
    private final ProblemList problems;

    AfterReader(KeyCheck keys) {
        this.keys = keys;
        this.problems = keys.problems();
    }

    /** The dependencies of an {@code after:} value, in order; a malformed one is left out, its problem reported. */
    List<After> read(Node node) {
        List<Node> items = node instanceof Sequence list ? list.items() : List.of(node);
        List<After> after = new ArrayList<>();
        for (Node item : items) {
            if (item instanceof Scalar name && !name.isNull()) {
                after.add(new After(name, List.of()));
            } else if (item instanceof Mapping mapping) {
                entry(mapping).ifPresent(after::add);
            } else {
                problems.add(item.mark(), "after takes a run name, {run: name, match: [keys]}, or a list of these;"
                        + " found " + item.describe());
            }
        }
        return after;
    }

    /**
     * Checks the dependencies of {@code run} against {@code keysOfRuns}: every run of the grid with the keys its
     * experiments set, or null for a run too broken to read.
     */
    void check(String run, List<After> after, Map<String, Set<String>> keysOfRuns) {
        Set<String> named = new HashSet<>();
        for (After a : after) {
            String other = a.run().text();
            if (!keysOfRuns.containsKey(other)) {
                problems.add(a.run().mark(), "after: no run '" + other + "' in this grid; runs are: "
                        + String.join(", ", keysOfRuns.keySet()) + Suggestions.didYouMean(other, keysOfRuns.keySet()));
            } else if (other.equals(run)) {
                problems.add(a.run().mark(), "after: run '" + run + "' cannot wait for itself");
            } else if (!named.add(other)) {
                problems.add(a.run().mark(), "after names run '" + other + "' twice; keep one");
            } else if (keysOfRuns.get(other) != null) {
                a.match().forEach(key -> checkMatch(key, run, keysOfRuns.get(run), other, keysOfRuns.get(other)));
            }
        }
    }

    /**
     * A circle of runs that wait for each other, so that none could start.
     *
     * @param run     the run whose {@code after:} entry closes the circle
     * @param closing that entry
     * @param runs    the runs around the circle, from the one {@code closing} names back to it
     */
    record Circle(String run, After closing, List<String> runs) {
    }

    /** Every circle among the {@code after:} of {@code runs}, each found once, where a depth-first walk closes it. */
    static List<Circle> circles(Map<String, RunSpec> runs) {
        List<Circle> found = new ArrayList<>();
        Map<String, Boolean> finished = new HashMap<>();
        for (String run : runs.keySet()) {
            walk(run, runs, finished, new ArrayList<>(), found);
        }
        return found;
    }

    private static void walk(String run, Map<String, RunSpec> runs, Map<String, Boolean> finished, List<String> path,
                             List<Circle> found) {
        if (finished.containsKey(run)) {
            return;
        }
        finished.put(run, false);
        path.add(run);
        for (After a : runs.get(run).after()) {
            String next = a.run().text();
            if (!runs.containsKey(next) || next.equals(run)) {
                continue;
            }
            if (Boolean.FALSE.equals(finished.get(next))) {
                List<String> circle = new ArrayList<>(path.subList(path.indexOf(next), path.size()));
                circle.add(next);
                found.add(new Circle(run, a, circle));
            } else {
                walk(next, runs, finished, path, found);
            }
        }
        path.remove(path.size() - 1);
        finished.put(run, true);
    }

    /** Reports {@code circle}, which an {@code after:} entry read by this reader closes. */
    void report(Circle circle) {
        problems.add(circle.closing().run().mark(), "after: runs wait for each other in a circle, "
                + String.join(" -> ", circle.runs()) + ", so none could start; drop one of these 'after:' entries");
    }

    private void checkMatch(Scalar key, String run, Collection<String> runKeys, String other,
                            Collection<String> otherKeys) {
        for (String missing : List.of(run, other)) {
            if (!(missing.equals(run) ? runKeys : otherKeys).contains(key.text()) && keys.knows(key.text())) {
                problems.add(key.mark(), "after: run '" + missing + "' never sets '" + key.text() + "', so it cannot"
                        + " be matched; match on keys that both runs set");
                return;
            }
        }
    }

    private Optional<After> entry(Mapping mapping) {
        for (Mapping.Entry entry : mapping.entries()) {
            if (!FIELDS.contains(entry.name())) {
                problems.add(entry.key().mark(), "after: unknown field '" + entry.name() + "'"
                        + Suggestions.didYouMean(entry.name(), FIELDS) + " (a dependency takes run, match)");
            }
        }
        Optional<Node> run = mapping.get("run");
        if (run.isEmpty() || !(run.get() instanceof Scalar name) || name.isNull()) {
            problems.add(run.map(Node::mark).orElse(mapping.mark()), "after: a dependency needs 'run:' with a run"
                    + " name, found " + run.map(Node::describe).orElse("none"));
            return Optional.empty();
        }
        List<Scalar> match = new ArrayList<>();
        mapping.get("match").ifPresent(node -> {
            List<Node> items = node instanceof Sequence list ? list.items() : List.of(node);
            for (Node item : items) {
                if (item instanceof Scalar key && !key.isNull()) {
                    keys.checkKey(key);
                    match.add(key);
                } else {
                    problems.add(item.mark(), "after: match takes a key or a list of keys, found " + item.describe());
                }
            }
        });
        return Optional.of(new After(name, match));
    }
}
