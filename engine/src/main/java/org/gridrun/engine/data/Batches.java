package org.gridrun.engine.data;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * One worker's stream of training batches: a {@link BatchSampler}'s indices gathered from a data set, augmented when
 * the data set {@link Dataset#augments() asks for it}.
 *
 * <p>Deterministic from (seed, worker). The augmentation of each image depends only on how many images the worker
 * has drawn before it, which the sampler's position already records, so {@link #saveState} writes exactly what the
 * sampler writes and a restored stream continues bit for bit. {@link #next} allocates nothing.
 */
public final class Batches {
    private final Dataset data;
    private final BatchSampler sampler;
    private final Augmentation augmentation;
    private final int batchSize;

    /** Batches of {@code batchSize} from {@code data} for worker {@code worker} under {@code seed}. */
    public Batches(Dataset data, int batchSize, long seed, int worker) {
        this.data = data;
        this.sampler = new BatchSampler(data.size(), batchSize, seed, worker);
        this.augmentation = data.augments() ? new Augmentation(seed, worker) : null;
        this.batchSize = batchSize;
    }

    /** Writes the next batch into {@code x} ({@code batchSize × features}) and its classes into {@code y}. */
    public void next(float[] x, float[] y) {
        long firstSample = sampler.batchesDrawn() * batchSize;
        int[] batch = sampler.next();
        if (augmentation == null) {
            data.gather(batch, 0, batchSize, x, y);
        } else {
            augmentation.gather(data, batch, 0, batchSize, firstSample, x, y);
        }
    }

    /** The current epoch, counted from 0 (−1 before the first batch). */
    public long epoch() {
        return sampler.epoch();
    }

    /** Writes the sampler's state ({@link BatchSampler#saveState}); the augmentation has none. */
    public void saveState(DataOutput out) throws IOException {
        sampler.saveState(out);
    }

    /** Reads what {@link #saveState} wrote, failing as {@link BatchSampler#restoreState} does. */
    public void restoreState(DataInput in) throws IOException {
        sampler.restoreState(in);
    }
}
