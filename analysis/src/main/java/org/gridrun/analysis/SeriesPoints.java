package org.gridrun.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.gridrun.engine.run.MetricRecord;

/**
 * The records of one metric series in strictly ascending step order, each with the attempt that wrote it: what
 * {@link MetricWriter} merges and cuts into {@link MetricBlock}s.
 */
final class SeriesPoints {
    private final long[] steps;
    private final double[] values;
    private final long[] walls;
    private final int[] attempts;

    private SeriesPoints(long[] steps, double[] values, long[] walls, int[] attempts) {
        this.steps = steps;
        this.values = values;
        this.walls = walls;
        this.attempts = attempts;
    }

    /** Records of one metric in the order they were logged, all of {@code attempt}; of one step, the last wins. */
    static SeriesPoints of(List<MetricRecord> records, int attempt) {
        int n = records.size();
        long[] steps = new long[n];
        double[] values = new double[n];
        long[] walls = new long[n];
        for (int i = 0; i < n; i++) {
            MetricRecord r = records.get(i);
            steps[i] = r.step();
            values[i] = r.value();
            walls[i] = r.wallMillis();
        }
        int[] attempts = new int[n];
        Arrays.fill(attempts, attempt);
        SeriesPoints points = new SeriesPoints(steps, values, walls, attempts);
        return points.ascending() ? points : points.sortedLastWins();
    }

    /** The records of stored blocks, in step order (blocks may come in any order). */
    static SeriesPoints of(List<MetricBlock> blocks) {
        int n = blocks.stream().mapToInt(MetricBlock::size).sum();
        SeriesPoints points = new SeriesPoints(new long[n], new double[n], new long[n], new int[n]);
        int at = 0;
        for (MetricBlock b : blocks) {
            System.arraycopy(b.steps(), 0, points.steps, at, b.size());
            System.arraycopy(b.values(), 0, points.values, at, b.size());
            System.arraycopy(b.walls(), 0, points.walls, at, b.size());
            Arrays.fill(points.attempts, at, at + b.size(), b.attempt());
            at += b.size();
        }
        return points.ascending() ? points : points.sortedLastWins();
    }

    /**
     * These records with {@code newer}'s added; at a step both hold, {@code newer}'s record wins unless it measured
     * the same value at the same wall time, which keeps the attempt that stored it first.
     */
    SeriesPoints overwrittenBy(SeriesPoints newer) {
        return overwrittenBy(newer, false);
    }

    /**
     * As {@link #overwrittenBy(SeriesPoints)}; when {@code reread}, a record of {@code newer} that holds another value
     * at the same step and wall time as a stored one contradicts it (a record logged again is logged later: it was
     * changed after it was written), and fails with a {@link Contradiction}.
     */
    SeriesPoints overwrittenBy(SeriesPoints newer, boolean reread) {
        int n = size() + newer.size();
        SeriesPoints merged = new SeriesPoints(new long[n], new double[n], new long[n], new int[n]);
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < size() || j < newer.size()) {
            if (j == newer.size() || i < size() && steps[i] < newer.steps[j]) {
                copy(this, i++, merged, k++);
            } else if (i == size() || newer.steps[j] < steps[i]) {
                copy(newer, j++, merged, k++);
            } else {
                boolean same = Double.compare(values[i], newer.values[j]) == 0 && walls[i] == newer.walls[j];
                if (reread && !same && walls[i] == newer.walls[j]) {
                    throw new Contradiction(steps[i], values[i], newer.values[j], walls[i]);
                }
                copy(same ? this : newer, same ? i : j, merged, k++);
                i++;
                j++;
            }
        }
        return merged.truncated(k);
    }

    /** Cuts the records into blocks of at most {@link MetricBlock#MAX_POINTS}, a new one wherever the attempt changes. */
    List<MetricBlock> blocks() {
        List<MetricBlock> blocks = new ArrayList<>();
        int from = 0;
        while (from < size()) {
            int to = from + 1;
            while (to < size() && to - from < MetricBlock.MAX_POINTS && attempts[to] == attempts[from]) {
                to++;
            }
            blocks.add(new MetricBlock(attempts[from], Arrays.copyOfRange(steps, from, to),
                    Arrays.copyOfRange(values, from, to), Arrays.copyOfRange(walls, from, to)));
            from = to;
        }
        return blocks;
    }

    int size() {
        return steps.length;
    }

    long firstStep() {
        return steps[0];
    }

    long lastStep() {
        return steps[steps.length - 1];
    }

    /** The record at position {@code i} (0: the lowest step), named {@code name}. */
    MetricRecord record(String name, int i) {
        return new MetricRecord(name, steps[i], values[i], walls[i]);
    }

    private boolean ascending() {
        for (int i = 1; i < steps.length; i++) {
            if (steps[i] <= steps[i - 1]) {
                return false;
            }
        }
        return true;
    }

    /** Sorted by step, keeping the last of the records of one step. */
    private SeriesPoints sortedLastWins() {
        Integer[] order = new Integer[size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.<Integer>comparingLong(i -> steps[i]).thenComparingInt(i -> i));
        SeriesPoints sorted = new SeriesPoints(new long[size()], new double[size()], new long[size()],
                new int[size()]);
        int k = 0;
        for (int o = 0; o < order.length; o++) {
            if (o + 1 < order.length && steps[order[o + 1]] == steps[order[o]]) {
                continue;
            }
            copy(this, order[o], sorted, k++);
        }
        return sorted.truncated(k);
    }

    private SeriesPoints truncated(int n) {
        return n == size() ? this : new SeriesPoints(Arrays.copyOf(steps, n), Arrays.copyOf(values, n),
                Arrays.copyOf(walls, n), Arrays.copyOf(attempts, n));
    }

    private static void copy(SeriesPoints from, int i, SeriesPoints to, int k) {
        to.steps[k] = from.steps[i];
        to.values[k] = from.values[i];
        to.walls[k] = from.walls[i];
        to.attempts[k] = from.attempts[i];
    }

    /** A re-read record that says another value than the stored one of the same step and wall time. */
    static final class Contradiction extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final long step;
        final double stored;
        final double read;
        final long wall;

        Contradiction(long step, double stored, double read, long wall) {
            super("step " + step + " logged at wall_ms " + wall + " is stored as " + stored + " but reads " + read);
            this.step = step;
            this.stored = stored;
            this.read = read;
            this.wall = wall;
        }
    }
}
