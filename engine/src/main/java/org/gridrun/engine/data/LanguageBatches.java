package org.gridrun.engine.data;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A token stream batched the usual way for language models: cut into {@code columns} equal columns (the tail that
 * does not fill a column dropped), of which this reader takes {@code sequences} consecutive ones from
 * {@code first}, read in windows of {@code bptt} steps.
 *
 * <p>Window i holds, time-major (row {@code t·sequences + s}), token {@code i·bptt + t} of column {@code first + s}
 * as input and the token after it as class. A training reader ({@link #next}) reads the full windows of a column in
 * order, epoch after epoch, and says when an epoch starts, when the model's carried state begins afresh; an
 * evaluation reads every window with {@link #window}, the last one possibly shorter. Workers take disjoint columns,
 * so each has a shard of the text.
 */
public final class LanguageBatches {
    private final TokenStream stream;
    private final int columnLength;
    private final int first;
    private final int sequences;
    private final int bptt;
    private long epoch = -1;
    private int nextWindow;

    public LanguageBatches(TokenStream stream, int columns, int first, int sequences, int bptt) {
        if (sequences < 1 || bptt < 1 || first < 0 || first + sequences > columns) {
            throw new IllegalArgumentException("columns [" + first + ", " + (first + sequences) + ") of " + columns
                    + " with windows of " + bptt);
        }
        this.stream = stream;
        this.columnLength = stream.length() / columns;
        this.first = first;
        this.sequences = sequences;
        this.bptt = bptt;
        if (columnLength < 2) {
            throw new IllegalArgumentException(stream.name() + " has " + stream.length() + " tokens, too few for "
                    + columns + " columns (batch_size x workers) of at least 2 tokens; use a longer text or a "
                    + "smaller batch_size");
        }
    }

    /** Full windows per column: the training reader's epoch, at least 1 (a short column gives one short window). */
    public int fullWindows() {
        return Math.max(1, (columnLength - 1) / bptt);
    }

    /** Windows per column including a last short one: what an evaluation reads. */
    public int windows() {
        return (columnLength - 1 + bptt - 1) / bptt;
    }

    /** The rows of the largest window. */
    public int rows() {
        return sequences * Math.min(bptt, columnLength - 1);
    }

    /**
     * Writes window {@code index} into {@code x} and its classes into {@code y} (time-major) and returns its rows.
     */
    public int window(int index, float[] x, float[] y) {
        int start = index * bptt;
        int steps = Math.min(bptt, columnLength - 1 - start);
        for (int t = 0; t < steps; t++) {
            for (int s = 0; s < sequences; s++) {
                int position = (first + s) * columnLength + start + t;
                x[t * sequences + s] = stream.token(position);
                y[t * sequences + s] = stream.token(position + 1);
            }
        }
        return steps * sequences;
    }

    /** Writes the next training window (always {@link #rows()} rows); returns true when it starts an epoch. */
    public boolean next(float[] x, float[] y) {
        boolean starts = nextWindow == 0;
        if (starts) {
            epoch++;
        }
        window(nextWindow, x, y);
        nextWindow = (nextWindow + 1) % fullWindows();
        return starts;
    }

    /** The current epoch, counted from 0 (−1 before the first window). */
    public long epoch() {
        return epoch;
    }

    public void saveState(DataOutput out) throws IOException {
        out.writeLong(epoch);
        out.writeInt(nextWindow);
    }

    /** Reads what {@link #saveState} wrote, failing on a position outside this reader's windows. */
    public void restoreState(DataInput in) throws IOException {
        long e = in.readLong();
        int w = in.readInt();
        if (w < 0 || w >= fullWindows()) {
            throw new IllegalStateException("window " + w + " is not one of this text's " + fullWindows());
        }
        epoch = e;
        nextWindow = w;
    }
}
