package org.gridrun.engine.data;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.gridrun.engine.random.CounterRng;

/**
 * Assembles batches of one {@link ImageData} ahead of need: each submitted batch is copied out image by image on the
 * {@link DataThreads}, into buffers of its own, and {@link #take} hands the oldest one over.
 *
 * <p>At most {@code depth} batches are in flight, so the memory is bounded by {@code depth} buffers of
 * {@code rows × features} floats. A batch is augmented when submitted with a first sample number: image {@code r}
 * reads the augmentation stream from position {@code (firstSample + r) · draws}, exactly as an unthreaded copy would,
 * so how many threads run changes nothing in what a batch holds.
 *
 * <p>With inline threads (or a data set in memory) nothing runs ahead: {@link #take} copies the oldest batch
 * straight into the caller's arrays, with no buffers of its own. A failure while copying (an unreadable image)
 * comes out of the {@link #take} of its batch, as the data set threw it. Used by one thread.
 */
public final class BatchAssembler implements AutoCloseable {
    private final ImageData data;
    private final DataThreads threads;
    private final int rows;
    private final int depth;
    private final long seed;
    private final long stream;
    private final boolean ahead;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final ArrayDeque<Pending> spare = new ArrayDeque<>();

    /**
     * Batches of up to {@code rows} images of {@code data}, up to {@code depth} of them in flight on
     * {@code threads}; augmented ones draw from stream {@code stream} of {@code seed}.
     */
    public BatchAssembler(ImageData data, int rows, int depth, DataThreads threads, long seed, long stream) {
        if (rows < 1 || depth < 1) {
            throw new IllegalArgumentException("rows and depth must be positive, found " + rows + " and " + depth);
        }
        this.data = data;
        this.threads = threads;
        this.rows = rows;
        this.depth = depth;
        this.seed = seed;
        this.stream = stream;
        this.ahead = !threads.isInline() && data.decodesOnDemand();
    }

    /** How many more batches may be submitted before one is taken. */
    public int room() {
        return ahead ? depth - queue.size() : Math.max(0, 1 - queue.size());
    }

    /**
     * Queues images {@code indices[0, count)} (copied), augmented from sample {@code firstSample} when it is not
     * negative, else in their evaluation view.
     */
    public void submit(int[] indices, int count, long firstSample) {
        if (count < 1 || count > rows) {
            throw new IllegalArgumentException("a batch holds 1 to " + rows + " images, found " + count);
        }
        if (room() == 0) {
            throw new IllegalStateException("take a batch before submitting more than " + depth);
        }
        Pending p = spare.isEmpty() ? new Pending() : spare.pop();
        p.indices = java.util.Arrays.copyOf(indices, count);
        p.firstSample = firstSample;
        if (ahead) {
            if (p.x == null) {
                p.x = new float[rows * data.features()];
                p.y = new float[rows];
            }
            start(p);
        }
        queue.add(p);
    }

    /** Waits for the oldest batch, writes it into {@code x} and {@code y}, and returns its number of images. */
    public int take(float[] x, float[] y) {
        Pending p = queue.poll();
        if (p == null) {
            throw new IllegalStateException("no batch was submitted");
        }
        int count = p.indices.length;
        try {
            if (ahead) {
                await(p);
                System.arraycopy(p.x, 0, x, 0, count * data.features());
                System.arraycopy(p.y, 0, y, 0, count);
            } else {
                copy(p, 0, count, x, y);
            }
        } finally {
            p.parts.clear();
            spare.push(p);
        }
        return count;
    }

    /** Drops every batch not yet taken, waiting for the copies already running. */
    public void cancel() {
        for (Pending p : queue) {
            for (Future<?> part : p.parts) {
                part.cancel(false);
            }
            for (Future<?> part : p.parts) {
                try {
                    part.get();
                } catch (CancellationException | ExecutionException e) {
                    // dropped: nobody takes this batch
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            p.parts.clear();
            spare.push(p);
        }
        queue.clear();
    }

    @Override
    public void close() {
        cancel();
    }

    private void start(Pending p) {
        int count = p.indices.length;
        int per = Math.max(1, count / (4 * Math.max(1, threads.threads())));
        for (int from = 0; from < count; from += per) {
            int first = from;
            int last = Math.min(count, from + per);
            p.parts.add(threads.submit(() -> copy(p, first, last, p.x, p.y)));
        }
    }

    private void copy(Pending p, int from, int to, float[] x, float[] y) {
        if (p.firstSample < 0) {
            for (int r = from; r < to; r++) {
                data.copyImage(p.indices[r], r, x, y);
            }
            return;
        }
        int draws = data.augmentationDraws();
        CounterRng rng = new CounterRng(seed, stream);
        for (int r = from; r < to; r++) {
            rng.seek((p.firstSample + r) * draws);
            data.copyAugmented(p.indices[r], r, rng, x, y);
        }
    }

    private static void await(Pending p) {
        for (Future<?> part : p.parts) {
            try {
                part.get();
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException r) {
                    throw r;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a batch", e);
            }
        }
    }

    /** One submitted batch: its images, its buffers when it runs ahead, and the copies under way. */
    private static final class Pending {
        int[] indices;
        long firstSample;
        float[] x;
        float[] y;
        final List<Future<?>> parts = new ArrayList<>();
    }
}
