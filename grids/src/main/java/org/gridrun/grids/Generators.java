package org.gridrun.grids;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Values given by a rule instead of listed: {@code range}, {@code linspace}, {@code logspace}, {@code geomspace}
 * and {@code sample}.
 *
 * <p>{@code {range: [start, stop]}} and {@code {range: [start, stop, step]}} count from start up to, not including,
 * stop, as Python's {@code range}; with integer arguments the values are integers. {@code {linspace: [start, stop,
 * num]}} gives num evenly spaced values from start to stop, both included; {@code {logspace: [startExp, stopExp,
 * num]}} gives 10 to the power of those; {@code {geomspace: [start, stop, num]}} a geometric progression from start
 * to stop; all three follow numpy. Their values are integers when every argument is an integer and every value a
 * whole number, else doubles rounded as {@link Numbers} says. {@code sample} draws random values from a seed
 * ({@link Samples}). A generator gives at most {@value #MAX_VALUES} values; bad arguments are problems that name
 * the generator and the argument.
 */
final class Generators {
    static final List<String> NAMES = List.of("range", "linspace", "logspace", "geomspace", "sample");
    static final int MAX_VALUES = 100_000;

    private Generators() {
    }

    /**
     * Whether {@code mapping} is a generator: it has a {@code sample} key, or it is a single entry named after a
     * spacing generator whose value is not a mapping (a mapping makes it a value with overrides).
     */
    static boolean isGenerator(Mapping mapping) {
        if (mapping.entry(Samples.SAMPLE).isPresent()) {
            return true;
        }
        return mapping.entries().size() == 1 && NAMES.contains(mapping.entries().get(0).name())
                && !(mapping.entries().get(0).value() instanceof Mapping);
    }

    /** The values of a generator, each at the generator's place; none, with problems reported, for bad arguments. */
    static List<Scalar> values(Mapping generator, ProblemList problems) {
        if (generator.entry(Samples.SAMPLE).isPresent()) {
            return new Samples(problems).values(generator);
        }
        Mapping.Entry entry = generator.entries().get(0);
        Optional<List<Scalar>> args = arguments(entry, problems);
        if (args.isEmpty()) {
            return List.of();
        }
        Spacing spacing = new Spacing(entry.name(), generator.mark(), problems);
        return switch (entry.name()) {
            case "range" -> spacing.range(args.get());
            case "linspace" -> spacing.linspace(args.get());
            case "logspace" -> spacing.logspace(args.get());
            default -> spacing.geomspace(args.get());
        };
    }

    private static Optional<List<Scalar>> arguments(Mapping.Entry entry, ProblemList problems) {
        String usage = entry.name().equals("range") ? "[start, stop] or [start, stop, step]"
                : entry.name().equals("geomspace") ? "[start, stop, num]"
                : entry.name().equals("logspace") ? "[startExp, stopExp, num]" : "[start, stop, num]";
        Node node = entry.value();
        if (!(node instanceof Sequence list)) {
            problems.add(node.mark(), entry.name() + " takes a list " + usage + ", found " + node.describe());
            return Optional.empty();
        }
        int size = list.items().size();
        boolean rightSize = entry.name().equals("range") ? size == 2 || size == 3 : size == 3;
        if (!rightSize) {
            problems.add(node.mark(), entry.name() + " takes " + usage + ", found " + size + " values");
            return Optional.empty();
        }
        List<Scalar> args = new ArrayList<>();
        for (Node item : list.items()) {
            if (item instanceof Scalar scalar) {
                args.add(scalar);
            } else {
                problems.add(item.mark(), entry.name() + " takes " + usage + " of numbers, found " + item.describe());
                return Optional.empty();
            }
        }
        return Optional.of(args);
    }
}
