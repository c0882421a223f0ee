package org.gridrun.jobs.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads squeue's output in {@link #FORMAT}, one {@link QueuedTask} per job or array task.
 *
 * <p>squeue lists the pending tasks of an array on one line in a compressed notation; this parser expands it:
 * {@code 123_4}, {@code 123_[4]}, {@code 123_[8-9]}, {@code 123_[1,3,5-7]}, {@code 123_[0-9:3]} and a throttle,
 * {@code 123_[5-10%2]}, each become one task per index. A plain {@code 456} is a job that is not an array. A line
 * it cannot read (a warning, a header, a heterogeneous job {@code 7+1}, a truncated expression) is skipped, never
 * half read.
 */
public final class SqueueParser {
    /** The squeue {@code --format} this parser reads: job or task id, long state name, user. */
    public static final String FORMAT = "%i|%T|%u";

    private static final Pattern ID = Pattern.compile("(\\d+)(?:_(?:(\\d+)|\\[([^\\]]+)\\]))?");
    private static final Pattern RANGE = Pattern.compile("(\\d+)(?:-(\\d+)(?::(\\d+))?)?");
    private static final Pattern STATE = Pattern.compile("[A-Z][A-Z_]*");

    private SqueueParser() {
    }

    /** Every task that {@code output} lists, in its order; lines it cannot read are skipped. */
    public static List<QueuedTask> parse(String output) {
        List<QueuedTask> tasks = new ArrayList<>();
        for (String line : output.split("\\R")) {
            try {
                tasks.addAll(parseLine(line.strip()));
            } catch (IllegalArgumentException malformed) {
                // skipped, as documented: a line is read whole or not at all
            }
        }
        return tasks;
    }

    private static List<QueuedTask> parseLine(String line) {
        String[] fields = line.split("\\|", -1);
        if (fields.length < 3 || !STATE.matcher(fields[1]).matches() || fields[2].isBlank()) {
            throw new IllegalArgumentException(line);
        }
        Matcher id = ID.matcher(fields[0]);
        if (!id.matches()) {
            throw new IllegalArgumentException(line);
        }
        String jobId = id.group(1);
        String state = fields[1];
        String user = fields[2];
        if (id.group(2) == null && id.group(3) == null) {
            return List.of(new QueuedTask(jobId, QueuedTask.NOT_AN_ARRAY, state, user));
        }
        List<Integer> indices = id.group(2) != null ? List.of(Integer.parseInt(id.group(2))) : expand(id.group(3));
        return indices.stream().map(i -> new QueuedTask(jobId, i, state, user)).toList();
    }

    /** The indices of a task expression such as {@code 1,3,5-7%2} (the throttle after {@code %} is dropped). */
    static List<Integer> expand(String expression) {
        int percent = expression.indexOf('%');
        String ranges = expression;
        if (percent >= 0) {
            Integer.parseInt(expression.substring(percent + 1));
            ranges = expression.substring(0, percent);
        }
        List<Integer> indices = new ArrayList<>();
        for (String range : ranges.split(",", -1)) {
            addRange(range, indices);
        }
        return indices;
    }

    private static void addRange(String range, List<Integer> indices) {
        Matcher m = RANGE.matcher(range);
        if (!m.matches()) {
            throw new IllegalArgumentException("not an index range: '" + range + "'");
        }
        int first = Integer.parseInt(m.group(1));
        int last = m.group(2) == null ? first : Integer.parseInt(m.group(2));
        int step = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
        if (last < first || step < 1) {
            throw new IllegalArgumentException("not an index range: '" + range + "'");
        }
        for (long i = first; i <= last; i += step) {
            indices.add((int) i);
        }
    }
}
