package org.gridrun.engine.model.nn;

import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.backend.Tensor;

/**
 * One layer of one worker's network: it maps a batch of {@link #in()}-shaped rows to {@link #out()}-shaped rows
 * and back-propagates gradients.
 *
 * <p>Order of calls: the {@link NetBuilder} makes the layer; {@link #allocate} once with the largest batch; then per
 * step {@link #forward} on a batch and, in training, {@link #backward} with the gradient of the loss with respect
 * to the output that forward returned. A layer keeps what its backward pass needs (its input, its output) from the
 * last forward. Backward adds nothing up: it overwrites its parameters' slots in the context's gradient and
 * returns the input's gradient, in a buffer of its own, or in {@code dy}'s when {@link #inPlace()}. It must not
 * change {@code dy} otherwise.
 */
abstract class Layer implements AutoCloseable {
    private final Shape in;
    private final Shape out;
    private final List<Tensor> owned = new ArrayList<>();
    private Tensor output;
    private Tensor inputGradient;

    Layer(Shape in, Shape out) {
        this.in = in;
        this.out = out;
    }

    Shape in() {
        return in;
    }

    Shape out() {
        return out;
    }

    /**
     * Allocates this layer's buffers for batches of up to {@code capacity} rows and reserves its scratch; by
     * default the two most layers need, read through {@link #output} and {@link #inputGradient}.
     */
    void allocate(Context ctx, int capacity) {
        output = own(ctx, capacity, out.size());
        inputGradient = own(ctx, capacity, in.size());
    }

    /** The first {@code rows} rows of the output buffer the default {@link #allocate} makes. */
    Tensor output(int rows) {
        return rows(output, rows);
    }

    /** The first {@code rows} rows of the input-gradient buffer the default {@link #allocate} makes. */
    Tensor inputGradient(int rows) {
        return rows(inputGradient, rows);
    }

    /** Computes the output of batch {@code x}; the returned tensor stays valid until the next forward. */
    abstract Tensor forward(Context ctx, Tensor x);

    /**
     * Writes the parameter gradients of the last forward's loss and returns the input's gradient, or null when
     * {@code inputGradient} is false.
     */
    abstract Tensor backward(Context ctx, Tensor dy, boolean inputGradient);

    /**
     * Whether the next layer may overwrite the output in place: true when this layer's backward pass does not read
     * its own output.
     */
    boolean outputReusable() {
        return true;
    }

    /** Whether {@link #forward} and {@link #backward} work in place on their argument. */
    boolean inPlace() {
        return false;
    }

    /** A buffer of {@code capacity × cols} this layer owns and closes. */
    Tensor own(Context ctx, int capacity, int cols) {
        Tensor t = ctx.backend.allocate(capacity, cols);
        owned.add(t);
        return t;
    }

    /** The first {@code rows} rows of {@code buffer}. */
    static Tensor rows(Tensor buffer, int rows) {
        return rows == buffer.rows() ? buffer : buffer.rowRange(0, rows);
    }

    @Override
    public void close() {
        owned.forEach(Tensor::close);
        owned.clear();
    }
}
