package org.gridrun.engine.data;

import org.gridrun.engine.random.CounterRng;

/**
 * The standard augmentation of small colour images: a random crop of the image zero-padded by {@link #PADDING}
 * pixels on each side, then a horizontal flip with probability ½.
 *
 * <p>As in the common reference pipeline, padding is raw pixel value 0 added before normalisation, so padded values
 * are each channel's normalised 0. Both offsets are uniform in {@code [−PADDING, PADDING]}.
 *
 * <p>The draws are a pure function of (seed, worker, sample number): sample {@code n} of worker {@code w} (the
 * {@code n}-th image that worker has drawn since the start, counting from 0) reads its own three positions of the
 * worker's random stream. An augmentation therefore has no state to checkpoint: a resumed run that knows how many
 * images it has drawn augments them exactly as the uninterrupted run did. {@link Batches} keeps that count and
 * {@link Dataset#copyAugmented} applies the draws; an instance of this class replays them for tests and tools.
 *
 * <p>Not thread-safe: one per worker. Allocates nothing per call.
 */
public final class Augmentation {
    /** The offset of the augmentation's random streams, apart from the samplers' and other users of the seed. */
    public static final long STREAM_BASE = 1L << 41;
    /** The zero padding added on each side before cropping. */
    public static final int PADDING = 4;

    /** The random values one augmented image reads: two offsets and the flip. */
    static final int DRAWS = 3;
    private static final int OFFSETS = 2 * PADDING + 1;

    private final CounterRng rng;
    private int dy;
    private int dx;
    private boolean flip;

    /** The augmentation of worker {@code worker}'s samples under {@code seed}. */
    public Augmentation(long seed, int worker) {
        this.rng = new CounterRng(seed, STREAM_BASE + worker);
    }

    /** Draws sample {@code sample}'s crop offsets and flip, which {@link #dy}, {@link #dx}, {@link #flip} return. */
    void draw(long sample) {
        rng.seek(sample * DRAWS);
        dy = offset(rng);
        dx = offset(rng);
        flip = rng.nextLong() < 0;
    }

    /** One crop offset in [−PADDING, PADDING] from the next value of {@code rng}. */
    static int offset(CounterRng rng) {
        return rng.nextInt(OFFSETS) - PADDING;
    }

    /** The row offset of the last drawn crop, in [−PADDING, PADDING]. */
    int dy() {
        return dy;
    }

    /** The column offset of the last drawn crop, in [−PADDING, PADDING]. */
    int dx() {
        return dx;
    }

    /** Whether the last drawn sample is mirrored. */
    boolean flip() {
        return flip;
    }
}
