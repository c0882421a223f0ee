package org.gridrun.engine.model;

import java.util.Map;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.LossSums;
import org.gridrun.engine.backend.Tensor;

/**
 * A classifier whose parameters live in one flat tensor, trained by several simulated workers at once.
 *
 * <p>The parameters are shared: every worker computes with the same {@link #parameters()} tensor. What a forward
 * pass leaves for the backward pass (activations, output gradients) lives in a {@link Workspace}, one per worker.
 * A gradient tensor has the parameters' layout, so an optimizer and a compressor see one flat vector.
 *
 * <p>Order of calls: create the model on a backend; {@link #initialize(long)} once; {@link #newWorkspace(int)} per
 * worker (and one for evaluation); then each step, per worker, {@link #forward} on a batch followed by
 * {@link #backward} on the same workspace, which reads what that forward left. {@link #evaluate} may run on any
 * workspace at any time, and invalidates what a forward left in it. {@link #close()} at the end releases the
 * parameters; workspaces are closed by their users. Batches have at most the workspace's capacity rows.
 */
public interface Model extends AutoCloseable {
    /** A short description, e.g. {@code mlp 784-256-10}. */
    String describe();

    /** The full configuration, for provenance. */
    Map<String, Object> config();

    /** The number of parameters: the length of the flat parameter and gradient tensors. */
    int parameterCount();

    /** The features per example. */
    int inputSize();

    /** The number of classes. */
    int classCount();

    /** Where each parameter tensor lies in the flat parameter (and gradient) vector, with its shape. */
    org.gridrun.engine.compress.TensorLayout layout();

    /**
     * The values per sequence a sequence model (the LSTM language model) carries from one window of a sequence to
     * the next (its hidden and cell states); 0 for a model that reads independent examples.
     */
    default int carriedState() {
        return 0;
    }

    /** The flat 1 × {@link #parameterCount()} parameter tensor, shared by every worker. */
    Tensor parameters();

    /**
     * The model's state that is not trained by gradients but changes in training (batch norms' running
     * statistics), as one flat tensor that checkpoints save; empty (1 × 0) for a model without any.
     */
    Tensor statistics();

    /** Sets the parameters to their initial values, deterministically from {@code seed}. */
    void initialize(long seed);

    /** Buffers for batches of up to {@code batchSize} examples: one per worker. */
    Workspace newWorkspace(int batchSize);

    /**
     * Computes the mean loss of the batch ({@code x}: rows × inputSize, {@code labels}: rows × 1 class indices) and
     * keeps what {@link #backward} needs in {@code ws}.
     */
    double forward(Workspace ws, Tensor x, Tensor labels);

    /**
     * {@link #forward(Workspace, Tensor, Tensor)} that leaves the batch's summed loss (its mean times
     * {@code x.rows()}) in {@code slot} of {@code sums} instead of waiting for it ({@link Backend#lossSums}).
     */
    void forward(Workspace ws, Tensor x, Tensor labels, LossSums sums, int slot);

    /** Writes the gradient of the last {@link #forward} loss on {@code ws} into {@code gradient} (1 × parameters). */
    void backward(Workspace ws, Tensor gradient);

    /** The summed loss and the number correct on {@code x}; no gradient is computed. */
    Evaluation evaluate(Workspace ws, Tensor x, Tensor labels);

    /**
     * Passes every layer's output through {@code activations} after the layer computes it, and every gradient a
     * layer passes back through {@code gradients}, in training forwards and backwards (null: no codec).
     *
     * <p>Models that cannot hook their layers fail with an {@link UnsupportedOperationException}.
     */
    default void codecActivations(TensorCodec activations, TensorCodec gradients) {
        throw new UnsupportedOperationException(describe() + " cannot pass its activations through a codec; "
                + "the layered models (lenet5, resnet*) can");
    }

    /** Releases the parameter tensor. */
    @Override
    void close();

    /**
     * One worker's buffers for a model: activations and gradients of a batch.
     *
     * <p>Made by {@link Model#newWorkspace(int)}, used only with that model, closed by its user.
     */
    interface Workspace extends AutoCloseable {
        /** The largest batch it holds. */
        int capacity();

        /**
         * Sets the key of the random masks (dropout) the next forward draws: the trainer derives it from the worker
         * and step, so masks are reproducible and a resumed run draws the same ones. Models without randomness
         * ignore it.
         */
        default void reseed(long noise) {
        }

        /**
         * Sets the state a sequence model starts the next forward from and leaves its last step's state in: b ×
         * {@link Model#carriedState()} values for windows of b sequences (whose rows are time-major, b per step),
         * owned by the caller, who zeroes it to start the sequences afresh. Models without a carried state ignore it.
         */
        default void carry(Tensor state) {
        }

        /** Releases the buffers. */
        @Override
        void close();
    }
}
