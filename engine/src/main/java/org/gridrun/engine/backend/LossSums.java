package org.gridrun.engine.backend;

import java.util.Arrays;

/**
 * The summed losses of a step's batches, one per slot (a worker), left where the backend computed them and read
 * together once the step's work is queued: {@link Backend#softmaxCrossEntropy(Tensor, Tensor, Tensor, float,
 * LossSums, int)} writes a slot without waiting for the device, so that a step needs one wait, not one per worker,
 * and can be replayed as one graph ({@link Backend#beginStep()}).
 *
 * <p>This class holds sums computed on the host (the CPU backend, and the default of every backend); a device
 * backend keeps them in device memory. A slot not written since the last {@link #read()} reads as NaN.
 */
public class LossSums implements AutoCloseable {
    private final double[] sums;
    /** What {@link #read()} and {@link #finishRead()} return, reused. */
    private final double[] later;

    /** {@code slots} sums, each NaN until written. */
    public LossSums(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("loss sums need at least one slot, found " + slots);
        }
        this.sums = new double[slots];
        this.later = new double[slots];
        Arrays.fill(sums, Double.NaN);
    }

    /** The number of slots. */
    public final int slots() {
        return sums.length;
    }

    /** Sets {@code slot} to {@code sum}, a loss the host already has. */
    public void put(int slot, double sum) {
        sums[slot] = sum;
    }

    /**
     * Waits for the work that writes the sums and returns them, slot by slot (the array is this object's, valid until
     * the next call); each slot then reads as NaN until written again. Fails as the loss itself would have where a
     * label was not a class index.
     */
    public double[] read() {
        startRead();
        return finishRead();
    }

    /**
     * Starts a {@link #read()} that does not wait: the sums written so far are taken, and each slot reads as NaN until
     * written again, but their values may come from the device later, once the work writing them has finished
     * without the host waiting for it (a step's graph, while the host prepares the next step). {@link #finishRead()}
     * returns them.
     */
    public void startRead() {
        System.arraycopy(sums, 0, later, 0, sums.length);
        Arrays.fill(sums, Double.NaN);
    }

    /**
     * The sums {@link #startRead()} took (the array is this object's, valid until the next {@link #startRead()}),
     * waiting for them where the device has not finished them yet.
     */
    public double[] finishRead() {
        return later;
    }

    @Override
    public void close() {
    }
}
