package org.gridrun.grids;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads a run's {@code seeds}: a count N, meaning seeds 1 to N, or an explicit list of integer seeds.
 *
 * <p>The result is an axis for the trainer key {@code seed}, which the run appends as its last, fastest axis. Each
 * seed is checked against the schema like any value of {@code seed}. A count above {@value #MAX_COUNT} is refused as
 * a likely typo.
 */
final class SeedAxis {
    static final String KEY = "seed";
    static final long MAX_COUNT = 10_000;

    private final KeyCheck keys;
    private final ProblemList problems;

    SeedAxis(KeyCheck keys) {
        this.keys = keys;
        this.problems = keys.problems();
    }

    /** The seed axis of a {@code seeds:} entry, or empty when the entry has a problem. */
    Optional<Axis> read(Mapping.Entry entry) {
        List<Scalar> seeds = seeds(entry.value());
        if (seeds.isEmpty()) {
            return Optional.empty();
        }
        Scalar key = new Scalar(KEY, KEY, entry.key().mark());
        if (!keys.knows(KEY)) {
            problems.add(entry.key().mark(), "seeds: the trainer has no key 'seed' to take them");
            return Optional.empty();
        }
        List<Space> points = seeds.stream().map(seed -> Space.of(keys.setting(KEY, seed), key.mark())).toList();
        return Optional.of(new Axis(key, KEY, Space.union(points)));
    }

    private List<Scalar> seeds(Node node) {
        if (node instanceof Scalar count && count.value() instanceof Long n && n >= 1 && n <= MAX_COUNT) {
            List<Scalar> seeds = new ArrayList<>();
            for (long seed = 1; seed <= n; seed++) {
                seeds.add(new Scalar(seed, Long.toString(seed), count.mark()));
            }
            return seeds;
        }
        if (node instanceof Sequence list && !list.items().isEmpty()) {
            List<Node> bad = list.items().stream()
                    .filter(item -> !(item instanceof Scalar seed && seed.value() instanceof Long)).toList();
            bad.forEach(item -> problems.add(item.mark(), "seeds must be integers, found " + item.describe()));
            return bad.isEmpty() ? list.items().stream().map(Scalar.class::cast).toList() : List.of();
        }
        problems.add(node.mark(), "seeds must be a count from 1 to " + MAX_COUNT
                + " (for seeds 1..N) or a non-empty list of integers, found " + node.describe());
        return List.of();
    }
}
