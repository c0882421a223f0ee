package org.gridrun.engine.model;

import org.gridrun.engine.backend.Tensor;

/**
 * One worker's buffers for an {@link Mlp}: each layer's output and the gradient with respect to it.
 *
 * <p>A batch smaller than the capacity uses row views of the buffers; views for the full capacity, and the
 * per-layer views of the last gradient tensor seen, are cached so a training step allocates nothing.
 */
final class MlpWorkspace implements Model.Workspace {
    private final Mlp model;
    private final int capacity;
    private final Tensor[] outputs;
    private final Tensor[] deltas;
    private final Tensor[] activeOutputs;
    private final Tensor[] activeDeltas;
    private final Tensor[] gradWeights;
    private final Tensor[] gradBiases;
    private Tensor lastGradient;
    private Tensor input;
    private boolean forwardDone;

    MlpWorkspace(Mlp model, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("batch size must be positive, found " + capacity);
        }
        this.model = model;
        this.capacity = capacity;
        int layers = model.layers();
        this.outputs = new Tensor[layers + 1];
        this.deltas = new Tensor[layers + 1];
        this.activeOutputs = new Tensor[layers + 1];
        this.activeDeltas = new Tensor[layers + 1];
        for (int l = 1; l <= layers; l++) {
            outputs[l] = model.backend().allocate(capacity, model.width(l));
            deltas[l] = model.backend().allocate(capacity, model.width(l));
        }
        this.gradWeights = new Tensor[layers];
        this.gradBiases = new Tensor[layers];
    }

    boolean belongsTo(Mlp owner) {
        return model == owner;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    /** Starts a pass on {@code x}: checks shapes and points the active views at its row count. */
    void begin(Tensor x, Tensor labels) {
        int rows = x.rows();
        if (rows < 1 || rows > capacity || x.cols() != model.inputSize() || labels.size() != rows) {
            throw new IllegalArgumentException("batch " + x + " with labels " + labels + " does not fit a workspace"
                    + " of " + capacity + " rows of " + model.inputSize());
        }
        input = x;
        for (int l = 1; l < outputs.length; l++) {
            activeOutputs[l] = rows == capacity ? outputs[l] : outputs[l].rowRange(0, rows);
            activeDeltas[l] = rows == capacity ? deltas[l] : deltas[l].rowRange(0, rows);
        }
        forwardDone = true;
    }

    void requireForward() {
        if (!forwardDone) {
            throw new IllegalStateException("backward needs a forward on the same workspace first");
        }
    }

    void end() {
        forwardDone = false;
    }

    /** The output of layer {@code l} (0 is the input). */
    Tensor activation(int l) {
        return l == 0 ? input : activeOutputs[l];
    }

    /** The gradient of the loss with respect to layer {@code l}'s pre-activation output. */
    Tensor delta(int l) {
        return activeDeltas[l];
    }

    /** The per-layer weight views of {@code gradient}, cached for the last gradient tensor seen. */
    Tensor[] gradientWeights(Tensor gradient) {
        if (gradient != lastGradient) {
            model.split(gradient, gradWeights, gradBiases);
            lastGradient = gradient;
        }
        return gradWeights;
    }

    /** The per-layer bias views of the gradient passed to {@link #gradientWeights}. */
    Tensor[] gradientBiases() {
        return gradBiases;
    }

    @Override
    public void close() {
        for (int l = 1; l < outputs.length; l++) {
            outputs[l].close();
            deltas[l].close();
        }
    }
}
