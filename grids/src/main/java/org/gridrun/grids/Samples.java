package org.gridrun.grids;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * The {@code sample} generator: {@code n} random values drawn from a fixed {@code seed}, the same every time.
 *
 * <p>{@code {sample: uniform, low: a, high: b, n: N, seed: S}} draws doubles in [a, b); {@code loguniform} draws
 * their logarithm uniformly between log a and log b (0 &lt; a &lt; b); {@code int} draws integers from a to b, both
 * included; {@code {sample: choice, values: [...], n: N, seed: S}} picks values from the list, each time any of
 * them. Draws are with replacement, so the same value may come twice; identical configs then run once.
 *
 * <p>The draws, in order, come from one {@code java.util.SplittableRandom(seed)}: {@code nextDouble()} for uniform
 * ({@code a + (b - a) * u}) and loguniform ({@code exp(log a + (log b - log a) * u)}), {@code nextLong(a, b + 1)}
 * for int and {@code nextInt(count)} for choice. Doubles are then rounded as {@link Numbers} says.
 */
final class Samples {
    static final String SAMPLE = "sample";
    static final List<String> KINDS = List.of("uniform", "loguniform", "int", "choice");
    static final List<String> FIELDS = List.of(SAMPLE, "low", "high", "values", "n", "seed");

    private final ProblemList problems;

    Samples(ProblemList problems) {
        this.problems = problems;
    }

    /** The sampled values, each at the generator's place (a choice at the place of the value chosen). */
    List<Scalar> values(Mapping sample) {
        boolean ok = true;
        for (Mapping.Entry entry : sample.entries()) {
            if (!FIELDS.contains(entry.name())) {
                problems.add(entry.key().mark(), "sample: unknown field '" + entry.name() + "'"
                        + Suggestions.didYouMean(entry.name(), FIELDS) + " (sample takes " + String.join(", ", FIELDS)
                        + ")");
                ok = false;
            }
        }
        Scalar kind = scalar(sample, SAMPLE).orElse(null);
        if (kind == null || !KINDS.contains(kind.text())) {
            Node node = sample.get(SAMPLE).orElseThrow();
            problems.add(node.mark(), "sample must be one of " + String.join(", ", KINDS) + ", found "
                    + node.describe() + (kind == null ? "" : Suggestions.didYouMean(kind.text(), KINDS)));
            return List.of();
        }
        List<String> needed = kind.text().equals("choice") ? List.of("values", "n", "seed")
                : List.of("low", "high", "n", "seed");
        for (String field : FIELDS.subList(1, FIELDS.size())) {
            Optional<Mapping.Entry> entry = sample.entry(field);
            if (entry.isEmpty() && needed.contains(field)) {
                problems.add(sample.mark(), "sample: " + kind.text() + " needs '" + field + ":'");
                ok = false;
            } else if (entry.isPresent() && !needed.contains(field)) {
                problems.add(entry.get().key().mark(), "sample: " + field + " is not used by " + kind.text()
                        + " (it takes " + String.join(", ", needed) + ")");
                ok = false;
            }
        }
        Long n = integer(sample, "n", 1, Generators.MAX_VALUES);
        Long seed = integer(sample, "seed", Long.MIN_VALUE, Long.MAX_VALUE);
        if (!ok || n == null || seed == null) {
            return List.of();
        }
        SplittableRandom random = new SplittableRandom(seed);
        return switch (kind.text()) {
            case "choice" -> choice(sample, n, random);
            case "int" -> integers(sample, n, random);
            default -> doubles(sample, kind.text().equals("loguniform"), n, random);
        };
    }

    private List<Scalar> doubles(Mapping sample, boolean log, long n, SplittableRandom random) {
        Double low = number(sample, "low");
        Double high = number(sample, "high");
        if (low == null || high == null || !ordered(sample, low < high, "low must be below high")
                || log && !ordered(sample, low > 0, "loguniform needs low above 0")) {
            return List.of();
        }
        List<Scalar> values = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            double u = random.nextDouble();
            double x = log ? Math.exp(Math.log(low) + (Math.log(high) - Math.log(low)) * u) : low + (high - low) * u;
            values.add(Numbers.scalar(x, false, sample.mark()));
        }
        return values;
    }

    private List<Scalar> integers(Mapping sample, long n, SplittableRandom random) {
        Long low = integer(sample, "low", Long.MIN_VALUE, Long.MAX_VALUE - 1);
        Long high = integer(sample, "high", Long.MIN_VALUE, Long.MAX_VALUE - 1);
        if (low == null || high == null || !ordered(sample, low <= high, "low must not be above high")) {
            return List.of();
        }
        List<Scalar> values = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            long x = random.nextLong(low, high + 1);
            values.add(new Scalar(x, Long.toString(x), sample.mark()));
        }
        return values;
    }

    private List<Scalar> choice(Mapping sample, long n, SplittableRandom random) {
        Node node = sample.get("values").orElseThrow();
        if (!(node instanceof Sequence list) || list.items().isEmpty()
                || !list.items().stream().allMatch(Scalar.class::isInstance)) {
            problems.add(node.mark(), "sample: values must be a non-empty list of values, found "
                    + (node instanceof Sequence ? "a list of " + ((Sequence) node).items().size() + " items, not all"
                    + " single values" : node.describe()));
            return List.of();
        }
        List<Scalar> values = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            values.add((Scalar) list.items().get(random.nextInt(list.items().size())));
        }
        return values;
    }

    private boolean ordered(Mapping sample, boolean ok, String rule) {
        if (!ok) {
            Node low = sample.get("low").orElseThrow();
            problems.add(low.mark(), "sample: " + rule + ", found low " + ((Scalar) low).text() + " and high "
                    + ((Scalar) sample.get("high").orElseThrow()).text());
        }
        return ok;
    }

    private Optional<Scalar> scalar(Mapping sample, String field) {
        return sample.get(field).filter(Scalar.class::isInstance).map(Scalar.class::cast)
                .filter(scalar -> !scalar.isNull());
    }

    private Double number(Mapping sample, String field) {
        Node node = sample.get(field).orElseThrow();
        if (node instanceof Scalar s && (s.value() instanceof Long || s.value() instanceof Double)
                && Double.isFinite(((Number) s.value()).doubleValue())) {
            return ((Number) s.value()).doubleValue();
        }
        problems.add(node.mark(), "sample: " + field + " must be a finite number, found " + node.describe());
        return null;
    }

    private Long integer(Mapping sample, String field, long min, long max) {
        Optional<Node> node = sample.get(field);
        if (node.isEmpty()) {
            return null;
        }
        if (node.get() instanceof Scalar s && s.value() instanceof Long x && x >= min && x <= max) {
            return x;
        }
        String range = min == Long.MIN_VALUE ? "an integer" : "an integer from " + min + " to " + max;
        problems.add(node.get().mark(), "sample: " + field + " must be " + range + ", found "
                + node.get().describe());
        return null;
    }
}
