package org.gridrun.grids;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.gridrun.grids.yaml.Mapping;
import org.gridrun.grids.yaml.Node;
import org.gridrun.grids.yaml.Scalar;
import org.gridrun.grids.yaml.Sequence;

/**
 * Reads and validates a {@code slurm:} block, of a grid file or of a run, into a {@link SlurmBlock}.
 *
 * <p>Options take one word each; {@code time} a SLURM time ({@link SlurmTime}); {@code mem} a size such as
 * {@code 18G}, {@code 500M} or {@code 1024} (megabytes); {@code cpus-per-task}, {@code nodes} and {@code ntasks} a
 * positive integer. {@code setup} and {@code extra} take a line or a list of lines, {@code env} a mapping of
 * variable names to values. An unknown key is a problem with a did-you-mean hint.
 */
final class SlurmReader {
    static final List<String> OPTIONS = List.of("partition", "time", "gres", "cpus-per-task", "mem", "account", "qos",
            "constraint", "nodes", "ntasks", "mail-type", "mail-user", "job-name");
    static final List<String> KEYS = Stream.concat(OPTIONS.stream(),
            Stream.of("max-requeues", "signal-seconds", "setup", "env", "extra")).toList();
    private static final Set<String> COUNTS = Set.of("cpus-per-task", "nodes", "ntasks");
    private static final Pattern WORD = Pattern.compile("[^\\s'\"\\\\]+");
    private static final Pattern MEM = Pattern.compile("[1-9][0-9]*[KMGTkmgt]?");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** The variable that gives a job the results store's secret: never written into a script. */
    private static final String STORE_SECRET = "GRIDRUN_DB_SECRET";

    private final ProblemList problems;

    SlurmReader(ProblemList problems) {
        this.problems = problems;
    }

    /** The block {@code node} sets; a broken entry is left out, its problem reported. */
    SlurmBlock read(Node node) {
        if (node instanceof Scalar scalar && scalar.isNull()) {
            return SlurmBlock.NONE;
        }
        if (!(node instanceof Mapping mapping)) {
            problems.add(node.mark(), "slurm must be a mapping of sbatch settings such as partition: gpu, found "
                    + node.describe());
            return SlurmBlock.NONE;
        }
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> env = new LinkedHashMap<>();
        Integer requeues = null;
        Integer signal = null;
        List<String> setup = null;
        List<String> extra = null;
        for (Mapping.Entry entry : mapping.entries()) {
            switch (entry.name()) {
                case "max-requeues" -> requeues = integer(entry, 0, Integer.MAX_VALUE).orElse(requeues);
                case "signal-seconds" -> signal = integer(entry, 1, 65535).orElse(signal);
                case "setup" -> setup = lines(entry, false);
                case "extra" -> extra = lines(entry, true);
                case "env" -> env(entry, env);
                default -> option(entry).ifPresent(value -> options.put(entry.name(), value));
            }
        }
        return new SlurmBlock(options, requeues, signal, setup, env, extra);
    }

    private Optional<String> option(Mapping.Entry entry) {
        if (!OPTIONS.contains(entry.name())) {
            problems.add(entry.key().mark(), "unknown slurm key '" + entry.name() + "'"
                    + Suggestions.didYouMean(entry.name(), KEYS) + " (slurm takes " + String.join(", ", KEYS) + ")");
            return Optional.empty();
        }
        if (COUNTS.contains(entry.name())) {
            return integer(entry, 1, Integer.MAX_VALUE).map(String::valueOf);
        }
        if (!(entry.value() instanceof Scalar scalar) || scalar.isNull()) {
            problems.add(entry.value().mark(), entry.name() + " takes one value, found " + entry.value().describe());
            return Optional.empty();
        }
        String text = scalar.text();
        Optional<String> problem = switch (entry.name()) {
            case "time" -> SlurmTime.problem(text);
            case "mem" -> MEM.matcher(text).matches() ? Optional.empty() : Optional.of("mem must be a positive size"
                    + " in megabytes, or with a unit K, M, G or T, such as 18G or 500M; found '" + text + "'");
            default -> WORD.matcher(text).matches() ? Optional.empty() : Optional.of(entry.name()
                    + " must be one word, without spaces or quotes, found '" + text + "'");
        };
        problem.ifPresent(message -> problems.add(scalar.mark(), message));
        return problem.isPresent() ? Optional.empty() : Optional.of(text);
    }

    private Optional<Integer> integer(Mapping.Entry entry, int min, int max) {
        if (entry.value() instanceof Scalar s && s.value() instanceof Long n && n >= min && n <= max) {
            return Optional.of(n.intValue());
        }
        String rule = max == Integer.MAX_VALUE ? (min == 0 ? "an integer, 0 or more" : "a positive integer")
                : "an integer from " + min + " to " + max;
        problems.add(entry.value().mark(), entry.name() + " must be " + rule + ", found " + entry.value().describe());
        return Optional.empty();
    }

    private List<String> lines(Mapping.Entry entry, boolean options) {
        Node node = entry.value();
        List<Node> items = node instanceof Sequence list ? list.items() : List.of(node);
        List<String> lines = new ArrayList<>();
        for (Node item : items) {
            if (!(item instanceof Scalar line) || line.isNull()) {
                problems.add(item.mark(), entry.name() + " takes a line or a list of lines, found " + item.describe());
            } else if (options && (!line.text().startsWith("-") || line.text().contains("\n"))) {
                problems.add(item.mark(), "extra takes raw sbatch options such as --exclusive, one per item; found '"
                        + line.text() + "'");
            } else {
                lines.add(line.text());
            }
        }
        return lines;
    }

    private void env(Mapping.Entry entry, Map<String, String> env) {
        if (!(entry.value() instanceof Mapping variables)) {
            problems.add(entry.value().mark(), "env takes a mapping of variable names to values, found "
                    + entry.value().describe());
            return;
        }
        for (Mapping.Entry variable : variables.entries()) {
            if (!ENV_NAME.matcher(variable.name()).matches()) {
                problems.add(variable.key().mark(), "env: '" + variable.name() + "' is not a variable name; use"
                        + " letters, digits and '_', not starting with a digit");
            } else if (variable.name().equals(STORE_SECRET)) {
                problems.add(variable.key().mark(), "env: " + STORE_SECRET + " must not be written into a batch "
                        + "script, which others may read; jobs read the store's secret from its file beside the "
                        + "store, or from the environment that sbatch passes on from where you submit");
            } else if (!(variable.value() instanceof Scalar value) || value.isNull()) {
                problems.add(variable.value().mark(), "env: " + variable.name() + " takes one value (write '' for"
                        + " an empty one), found " + variable.value().describe());
            } else {
                env.put(variable.name(), value.text());
            }
        }
    }
}
