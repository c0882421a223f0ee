package org.gridrun.engine.train;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.data.Batches;
import org.gridrun.engine.data.Dataset;
import org.gridrun.engine.model.Model;
import org.gridrun.engine.random.CounterRng;

/**
 * One simulated worker: its minibatch sampler, its batch and gradient buffers and its workspace.
 *
 * <p>Everything is allocated at construction; {@link #computeGradient(long)} allocates nothing. Its only state across
 * steps is the sampler's position, which a checkpoint saves.
 */
final class Worker implements AutoCloseable {
    private final Backend backend;
    private final Model model;
    private final int index;
    private final Batches batches;
    private final Model.Workspace workspace;
    private final float[] hostX;
    private final float[] hostY;
    private final Tensor x;
    private final Tensor y;
    private final Tensor gradient;

    Worker(int index, Backend backend, Model model, Dataset data, int batchSize, long seed) {
        this.backend = backend;
        this.model = model;
        this.index = index;
        this.batches = new Batches(data, batchSize, seed, index);
        this.workspace = model.newWorkspace(batchSize);
        this.hostX = new float[batchSize * data.features()];
        this.hostY = new float[batchSize];
        this.x = backend.allocate(batchSize, data.features());
        this.y = backend.allocate(batchSize, 1);
        this.gradient = backend.allocate(1, model.parameterCount());
    }

    /**
     * Draws this worker's next minibatch (augmented when the data set says so) and computes its gradient at
     * {@code step} into {@link #gradient()}; returns the loss. The model's random masks are keyed by worker and step.
     */
    double computeGradient(long step) {
        batches.next(hostX, hostY);
        backend.upload(hostX, 0, x);
        backend.upload(hostY, 0, y);
        workspace.reseed(CounterRng.mix(((long) index << 40) ^ step));
        double loss = model.forward(workspace, x, y);
        model.backward(workspace, gradient);
        return loss;
    }

    void saveState(DataOutput out) throws IOException {
        batches.saveState(out);
    }

    void restoreState(DataInput in) throws IOException {
        batches.restoreState(in);
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
