package org.gridrun.engine.data;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.gridrun.engine.random.CounterRng;

/**
 * Draws one worker's minibatches: a fresh random permutation of the data set every epoch, cut into batches.
 *
 * <p>Deterministic from (seed, worker): worker {@code w} shuffles with its own random stream, so workers draw
 * different batches and a run repeats exactly. An epoch ends when fewer than {@code batchSize} unseen images remain;
 * those are dropped for that epoch and the next permutation starts. {@link #next()} returns the same reused array
 * every time: nothing is allocated per step.
 *
 * <p>Each epoch shuffles the previous epoch's permutation, so the permutation itself is state: {@link #saveState}
 * writes it with the position, the epoch and the random stream's position, and {@link #restoreState} on a sampler of
 * the same size, batch size, seed and worker continues with exactly the batches the saved one would have drawn.
 */
public final class BatchSampler {
    /** The offset of the data samplers' random streams, apart from other users of the same seed. */
    public static final long STREAM_BASE = 1L << 40;

    private final int[] permutation;
    private final int[] batch;
    private final CounterRng rng;
    private int position;
    private long epoch;

    /** A sampler over {@code size} images for worker {@code worker}, batches of {@code batchSize}. */
    public BatchSampler(int size, int batchSize, long seed, int worker) {
        if (batchSize < 1 || batchSize > size) {
            throw new IllegalArgumentException("batch size must be in [1, " + size + "] for a data set of " + size
                    + " images, found " + batchSize);
        }
        this.permutation = new int[size];
        for (int i = 0; i < size; i++) {
            permutation[i] = i;
        }
        this.batch = new int[batchSize];
        this.rng = new CounterRng(seed, STREAM_BASE + worker);
        this.position = size;
        this.epoch = -1;
    }

    /** The indices of the next minibatch (the same array each call, overwritten). */
    public int[] next() {
        if (position + batch.length > permutation.length) {
            shuffle();
        }
        System.arraycopy(permutation, position, batch, 0, batch.length);
        position += batch.length;
        return batch;
    }

    /** The current epoch, counted from 0 (−1 before the first batch). */
    public long epoch() {
        return epoch;
    }

    /**
     * How many batches {@link #next()} has returned since the start, across epochs; derived from the epoch and the
     * position, so it survives {@link #saveState}/{@link #restoreState} with nothing more written.
     */
    public long batchesDrawn() {
        int perEpoch = permutation.length / batch.length;
        return epoch * perEpoch + position / batch.length;
    }

    /** Writes sizes, position, epoch, random state, then the permutation: {@code 44 + 4·size} bytes. */
    public void saveState(DataOutput out) throws IOException {
        out.writeInt(permutation.length);
        out.writeInt(batch.length);
        out.writeInt(position);
        out.writeLong(epoch);
        rng.saveState(out);
        for (int index : permutation) {
            out.writeInt(index);
        }
    }

    /**
     * Reads what {@link #saveState} wrote; the next batch is the one the saved sampler would have drawn next.
     *
     * <p>Fails with an {@link IllegalStateException} when the saved sampler had another data-set size, batch size,
     * seed or worker.
     */
    public void restoreState(DataInput in) throws IOException {
        int size = in.readInt();
        int batchSize = in.readInt();
        if (size != permutation.length || batchSize != batch.length) {
            throw new IllegalStateException("saved sampler draws batches of " + batchSize + " from " + size
                    + " images; this one batches of " + batch.length + " from " + permutation.length);
        }
        int savedPosition = in.readInt();
        long savedEpoch = in.readLong();
        rng.restoreState(in);
        for (int i = 0; i < size; i++) {
            permutation[i] = in.readInt();
        }
        position = savedPosition;
        epoch = savedEpoch;
    }

    private void shuffle() {
        for (int i = permutation.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int swap = permutation[i];
            permutation[i] = permutation[j];
            permutation[j] = swap;
        }
        position = 0;
        epoch++;
    }
}
