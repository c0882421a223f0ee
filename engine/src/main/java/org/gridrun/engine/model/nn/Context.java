package org.gridrun.engine.model.nn;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.model.TensorCodec;

/**
 * What one workspace's layers share while they run: the backend, the model's parameters and running statistics,
 * the gradient being written, the mode, the dropout key and one scratch buffer.
 *
 * <p>The scratch holds the largest im2col matrix of any layer: a convolution unfolds its input into it in the
 * forward pass and again in the backward pass (rather than keeping one unfolded copy per layer), so a deep network
 * needs one such buffer per worker, not one per convolution.
 */
final class Context implements AutoCloseable {
    final Backend backend;
    final Tensor parameters;
    final Tensor statistics;
    private final long seed;
    private Tensor scratch;
    private int scratchSize;
    Tensor gradient;
    boolean training;
    long noise;
    TensorCodec activationCodec;
    TensorCodec gradientCodec;
    /** A sequence model's carried state (the caller's, {@code sequences} rows), or null. */
    Tensor state;
    /** The sequences of a window, the rows of {@link #state}. */
    int sequences;

    Context(Backend backend, Tensor parameters, Tensor statistics, long seed) {
        this.backend = backend;
        this.parameters = parameters;
        this.statistics = statistics;
        this.seed = seed;
    }

    /** Asks for a scratch of at least {@code size} values; called while layers allocate. */
    void reserveScratch(int size) {
        scratchSize = Math.max(scratchSize, size);
    }

    /** Allocates the scratch once every layer has reserved its share. */
    void allocateScratch() {
        scratch = backend.allocate(1, Math.max(1, scratchSize));
    }

    /** The scratch viewed as {@code rows × cols}. */
    Tensor scratch(int rows, int cols) {
        return scratch.view(0, rows, cols);
    }

    /** The seed dropout masks are drawn from: the model's seed mixed with the layer's index. */
    long dropoutSeed(int layer) {
        return seed * 31 + layer;
    }

    @Override
    public void close() {
        if (scratch != null) {
            scratch.close();
        }
    }
}
