package org.gridrun.engine.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.LossSums;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.backend.TensorIo;
import org.gridrun.engine.data.BatchAssembler;
import org.gridrun.engine.data.Batches;
import org.gridrun.engine.data.DataThreads;
import org.gridrun.engine.data.ImageData;
import org.gridrun.engine.data.LanguageBatches;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.random.CounterRng;

/**
 * One simulated worker: its minibatch sampler, its batch and gradient buffers and its workspace.
 *
 * <p>Everything is allocated at construction; {@link #computeGradient(long)} allocates nothing for a data set in
 * memory. Its only state across steps is the sampler's position, which a checkpoint saves.
 *
 * <p>Where workers run one after another, each call here being a whole forward and backward pass, the workers of one
 * trainer may share one workspace (its activation buffers): K workers then need the activation memory of one. Workers
 * whose passes run at the same time ({@code concurrent_workers}) each have their own.
 *
 * <p>{@link #sampleGradient} computes extra gradients for a compressor that fits itself to the gradient
 * distribution: draw {@code d} is the gradient of {@code batchSize} examples drawn uniformly with replacement from
 * position {@code d·batchSize} of the worker's stream {@link #SAMPLE_STREAM_BASE}{@code + index}, a stream of its
 * own, so the training batches, and every state a checkpoint holds, are the same with or without draws.
 * {@link #varianceGradient} does the same from the stream {@link #VARIANCE_STREAM_BASE}{@code + index}, for the
 * gradient-variance measurement, so its draws never coincide with a compressor's.
 */
final class Worker implements AutoCloseable {
    /** The offset of the streams of sampled gradients' minibatches, apart from the data samplers and compressors. */
    static final long SAMPLE_STREAM_BASE = 4L << 40;
    /** The offset of the streams of the variance measurement's minibatches. */
    static final long VARIANCE_STREAM_BASE = 6L << 40;

    private final Backend backend;
    private final Model model;
    private final int index;
    private final ImageData data;
    /** The image batches, or null for a language model's text. */
    private final Batches batches;
    /** A language model's windows of text, or null for images. */
    private final LanguageBatches text;
    /** A language model's carried state (hidden and cell states of its sequences), or null. */
    private final Tensor state;
    private final BatchAssembler draws;
    private final CounterRng sampleRng;
    private final CounterRng varianceRng;
    private final int[] sampleBatch;
    private final Model.Workspace workspace;
    private final boolean ownsWorkspace;
    private final float[] hostX;
    private final float[] hostY;
    private final Tensor x;
    private final Tensor y;
    private final Tensor gradient;

    /** A worker with a workspace of its own and no data threads. */
    Worker(int index, Backend backend, Model model, ImageData data, int batchSize, long seed) {
        this(index, backend, model, data, batchSize, seed, DataThreads.inline(), null);
    }

    /**
     * Worker {@code index} training {@code model} on {@code data}, assembling its batches on {@code threads}, in
     * {@code workspace} (a workspace of at least {@code batchSize} rows it does not close) or, when null, its own.
     */
    Worker(int index, Backend backend, Model model, ImageData data, int batchSize, long seed, DataThreads threads,
           Model.Workspace workspace) {
        this(index, backend, model, data, batchSize, seed, threads, workspace, null);
    }

    /**
     * As above; with {@code text} not null the worker trains a language model on its windows, time-major rows of
     * {@code text.rows()}, carrying the model's state from one window to the next and zeroing it at each epoch.
     */
    Worker(int index, Backend backend, Model model, ImageData data, int batchSize, long seed, DataThreads threads,
           Model.Workspace workspace, LanguageBatches text) {
        this.backend = backend;
        this.model = model;
        this.index = index;
        this.data = data;
        this.text = text;
        this.batches = text == null ? new Batches(data, batchSize, seed, index, threads) : null;
        this.state = text == null ? null : backend.allocate(batchSize, model.carriedState());
        int rows = text == null ? batchSize : text.rows();
        this.draws = new BatchAssembler(data, batchSize, 1, threads, seed, 0);
        this.sampleRng = new CounterRng(seed, SAMPLE_STREAM_BASE + index);
        this.varianceRng = new CounterRng(seed, VARIANCE_STREAM_BASE + index);
        this.sampleBatch = new int[batchSize];
        this.ownsWorkspace = workspace == null;
        this.workspace = ownsWorkspace ? model.newWorkspace(rows) : workspace;
        this.hostX = new float[Math.max(rows, batchSize) * data.features()];
        this.hostY = new float[Math.max(rows, batchSize)];
        this.x = backend.allocate(rows, data.features());
        this.y = backend.allocate(rows, 1);
        this.gradient = backend.allocate(1, model.parameterCount());
    }

    /**
     * Draws this worker's next minibatch (augmented when the data set says so) and computes its gradient at
     * {@code step} into {@link #gradient()}; returns the loss. The model's random masks are keyed by worker and step.
     */
    double computeGradient(long step) {
        nextBatch();
        return gradientOfHostBatch(CounterRng.mix(((long) index << 40) ^ step));
    }

    /**
     * {@link #computeGradient(long)} that leaves the batch's summed loss in {@code slot} of {@code sums} without
     * waiting for it; {@link #meanLoss} turns it into the loss {@code computeGradient} returns.
     */
    void computeGradient(long step, LossSums sums, int slot) {
        nextBatch();
        uploadBatch(CounterRng.mix(((long) index << 40) ^ step));
        model.forward(workspace, x, y, sums, slot);
        model.backward(workspace, gradient);
    }

    /** The mean loss of a batch whose summed loss is {@code sum}, as {@link #computeGradient(long)} returns it. */
    double meanLoss(double sum) {
        return sum / x.rows();
    }

    /** Draws the next training batch into the host arrays; a language model's carried state follows it. */
    private void nextBatch() {
        if (text == null) {
            batches.next(hostX, hostY);
        } else {
            if (text.next(hostX, hostY)) {
                backend.fill(state, 0f);
            }
            workspace.carry(state);
        }
    }

    /**
     * Computes the gradient of sampled minibatch {@code draw} at the current parameters into {@code out}.
     *
     * <p>It overwrites {@link #gradient()}, so call it only after that was read (the trainer downloads it before
     * encoding, and compressors draw while encoding). Sampled batches are not augmented.
     */
    void sampleGradient(long draw, float[] out) {
        drawGradient(sampleRng, 0, draw, out);
    }

    /** As {@link #sampleGradient}, from the variance measurement's stream. */
    void varianceGradient(long draw, float[] out) {
        drawGradient(varianceRng, VARIANCE_STREAM_BASE, draw, out);
    }

    /** Draw {@code draw} of {@code rng}'s minibatches; {@code salt} tells the random masks of the streams apart. */
    private void drawGradient(CounterRng rng, long salt, long draw, float[] out) {
        rng.seek(draw * sampleBatch.length);
        for (int j = 0; j < sampleBatch.length; j++) {
            sampleBatch[j] = rng.nextInt(data.size());
        }
        draws.submit(sampleBatch, sampleBatch.length, -1);
        draws.take(hostX, hostY);
        gradientOfHostBatch(CounterRng.mix(~draw ^ ((long) index << 40) ^ salt));
        backend.download(gradient, out, 0);
    }

    /** Uploads the batch in the host arrays and computes its gradient, with random masks keyed by {@code noise}. */
    private double gradientOfHostBatch(long noise) {
        uploadBatch(noise);
        double loss = model.forward(workspace, x, y);
        model.backward(workspace, gradient);
        return loss;
    }

    /** Uploads the batch in the host arrays; the model's random masks are keyed by {@code noise}. */
    private void uploadBatch(long noise) {
        backend.upload(hostX, 0, x);
        backend.upload(hostY, 0, y);
        workspace.reseed(noise);
    }

    /** Writes the sampler's position, or a language model's window position and carried state. */
    void saveState(DataOutput out) throws IOException {
        if (text == null) {
            batches.saveState(out);
        } else {
            text.saveState(out);
            TensorIo.write(backend, state, out);
        }
    }

    void restoreState(DataInput in) throws IOException {
        if (text == null) {
            batches.restoreState(in);
        } else {
            text.restoreState(in);
            TensorIo.read(backend, state, in, "carried state of worker " + index);
        }
    }

    Tensor gradient() {
        return gradient;
    }

    @Override
    public void close() {
        if (batches != null) {
            batches.close();
        } else {
            state.close();
        }
        if (ownsWorkspace) {
            workspace.close();
        }
        x.close();
        y.close();
        gradient.close();
    }
}
