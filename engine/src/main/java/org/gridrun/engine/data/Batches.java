package org.gridrun.engine.data;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * One worker's stream of training batches: a {@link BatchSampler}'s indices copied out of a data set, augmented when
 * the data set has augmentation draws ({@link Augmentation} for small images in memory, random resized crops for
 * ImageNet).
 *
 * <p>Deterministic from (seed, worker). The augmentation of each image depends only on how many images the worker
 * has drawn before it, which the sampler's position already records, so {@link #saveState} writes exactly what the
 * sampler writes and a restored stream continues bit for bit.
 *
 * <p>For a data set decoded from files, the next {@link #DEPTH} batches are assembled on the {@link DataThreads}
 * while the current one trains. The indices of those batches come from a second sampler running ahead; the first,
 * which the state is saved from, only advances as batches are taken, so a checkpoint holds the position of the
 * batches the model has seen, not of the ones decoded ahead. With a data set in memory {@link #next} copies the
 * batch on the caller's thread and allocates nothing.
 */
public final class Batches implements AutoCloseable {
    /** How many batches per worker are assembled ahead of the one being trained on. */
    public static final int DEPTH = 2;

    private final ImageData data;
    private final BatchSampler taken;
    private final BatchSampler ahead;
    private final BatchAssembler assembler;
    private final boolean augments;
    private final int batchSize;

    /** Batches of {@code batchSize} from {@code data} for worker {@code worker} under {@code seed}, unthreaded. */
    public Batches(ImageData data, int batchSize, long seed, int worker) {
        this(data, batchSize, seed, worker, DataThreads.inline());
    }

    /** As {@link #Batches(ImageData, int, long, int)}, assembled ahead on {@code threads}. */
    public Batches(ImageData data, int batchSize, long seed, int worker, DataThreads threads) {
        this.data = data;
        this.taken = new BatchSampler(data.size(), batchSize, seed, worker);
        this.ahead = new BatchSampler(data.size(), batchSize, seed, worker);
        this.assembler = new BatchAssembler(data, batchSize, DEPTH, threads, seed,
                Augmentation.STREAM_BASE + worker);
        this.augments = data.augmentationDraws() > 0;
        this.batchSize = batchSize;
    }

    /** Writes the next batch into {@code x} ({@code batchSize × features}) and its classes into {@code y}. */
    public void next(float[] x, float[] y) {
        while (assembler.room() > 0) {
            long firstSample = ahead.batchesDrawn() * batchSize;
            assembler.submit(ahead.next(), batchSize, augments ? firstSample : -1);
        }
        taken.next();
        assembler.take(x, y);
    }

    /** The current epoch, counted from 0 (−1 before the first batch). */
    public long epoch() {
        return taken.epoch();
    }

    /** Writes the sampler's state ({@link BatchSampler#saveState}) as of the batches taken; augmentation has none. */
    public void saveState(DataOutput out) throws IOException {
        taken.saveState(out);
    }

    /** Reads what {@link #saveState} wrote, failing as {@link BatchSampler#restoreState} does. */
    public void restoreState(DataInput in) throws IOException {
        assembler.cancel();
        taken.restoreState(in);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        taken.saveState(new DataOutputStream(bytes));
        ahead.restoreState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }

    /** Drops the batches assembled ahead. */
    @Override
    public void close() {
        assembler.close();
    }
}
