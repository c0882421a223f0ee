package org.gridrun.engine.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.data.BatchSampler;
import org.gridrun.engine.data.Dataset;
import org.gridrun.engine.model.Model;

/**
 * One simulated worker: its minibatch sampler, its batch and gradient buffers and its workspace.
 *
 * <p>Everything is allocated at construction; {@link #computeGradient()} allocates nothing. Its only state across
 * steps is the sampler's position, which a checkpoint saves.
 */
final class Worker implements AutoCloseable {
    private final Backend backend;
    private final Model model;
    private final Dataset data;
    private final BatchSampler sampler;
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
        this.workspace = model.newWorkspace(batchSize);
        this.hostX = new float[batchSize * data.features()];
        this.hostY = new float[batchSize];
        this.x = backend.allocate(batchSize, data.features());
        this.y = backend.allocate(batchSize, 1);
        this.gradient = backend.allocate(1, model.parameterCount());
    }

    /** Draws this worker's next minibatch and computes its gradient into {@link #gradient()}; returns the loss. */
    double computeGradient() {
        int[] batch = sampler.next();
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
