package org.gridrun.engine.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.data.BatchSampler;
import org.gridrun.engine.data.Dataset;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.random.CounterRng;

/**
 * One simulated worker: its minibatch sampler, its batch and gradient buffers and its workspace.
 *
 * <p>Everything is allocated at construction; {@link #computeGradient()} allocates nothing. Its only state across
 * steps is the sampler's position, which a checkpoint saves.
 *
 * <p>{@link #sampleGradient} computes extra gradients for a compressor that fits itself to the gradient
 * distribution: draw {@code d} is the gradient of {@code batchSize} examples drawn uniformly with replacement from
 * position {@code d·batchSize} of the worker's stream {@link #SAMPLE_STREAM_BASE}{@code + index}, a stream of its
 * own, so the training batches, and every state a checkpoint holds, are the same with or without draws.
 */
final class Worker implements AutoCloseable {
    /** The offset of the streams of sampled gradients' minibatches, apart from the data samplers and compressors. */
    static final long SAMPLE_STREAM_BASE = 4L << 40;

    private final Backend backend;
    private final Model model;
    private final Dataset data;
    private final BatchSampler sampler;
    private final CounterRng sampleRng;
    private final int[] sampleBatch;
    private final Model.Workspace workspace;
    private final float[] hostX;
    private final float[] hostY;
    private final Tensor x;
    private final Tensor y;
    private final Tensor gradient;

    Worker(int index, Backend backend, Model model, Dataset data, int batchSize, long seed) {
        this.backend = backend;
        this.model = model;
        this.data = data;
        this.sampler = new BatchSampler(data.size(), batchSize, seed, index);
        this.sampleRng = new CounterRng(seed, SAMPLE_STREAM_BASE + index);
        this.sampleBatch = new int[batchSize];
        this.workspace = model.newWorkspace(batchSize);
        this.hostX = new float[batchSize * data.features()];
        this.hostY = new float[batchSize];
        this.x = backend.allocate(batchSize, data.features());
        this.y = backend.allocate(batchSize, 1);
        this.gradient = backend.allocate(1, model.parameterCount());
    }

    /** Draws this worker's next minibatch and computes its gradient into {@link #gradient()}; returns the loss. */
    double computeGradient() {
        return gradientOf(sampler.next());
    }

    /**
     * Computes the gradient of sampled minibatch {@code draw} at the current parameters into {@code out}.
     *
     * <p>It overwrites {@link #gradient()}, so call it only after that was read (the trainer downloads it before
     * encoding, and compressors draw while encoding).
     */
    void sampleGradient(long draw, float[] out) {
        sampleRng.seek(draw * sampleBatch.length);
        for (int j = 0; j < sampleBatch.length; j++) {
            sampleBatch[j] = sampleRng.nextInt(data.size());
        }
        gradientOf(sampleBatch);
        backend.download(gradient, out, 0);
    }

    private double gradientOf(int[] batch) {
        data.gather(batch, 0, batch.length, hostX, hostY);
        backend.upload(hostX, 0, x);
        backend.upload(hostY, 0, y);
        double loss = model.forward(workspace, x, y);
        model.backward(workspace, gradient);
        return loss;
    }

    void saveState(DataOutput out) throws IOException {
        sampler.saveState(out);
    }

    void restoreState(DataInput in) throws IOException {
        sampler.restoreState(in);
    }

    Tensor gradient() {
        return gradient;
    }

    @Override
    public void close() {
        workspace.close();
        x.close();
        y.close();
        gradient.close();
    }
}
