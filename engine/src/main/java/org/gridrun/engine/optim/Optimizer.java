package org.gridrun.engine.optim;

import java.util.Map;
import org.gridrun.engine.backend.Tensor;

/**
 * Updates a flat parameter tensor from a gradient of the same layout.
 *
 * <p>Order of calls: construct for a parameter count on a backend; {@link #step} once per training iteration with
 * the aggregated gradient; {@link #reset()} to forget the state (momentum) as if new; {@link #close()} at the end to
 * release the state tensors. The optimizer reads the gradient and does not modify it.
 */
public interface Optimizer extends AutoCloseable {
    /** The full configuration, for provenance. */
    Map<String, Object> config();

    /** Applies one update to {@code params} from {@code gradient}. */
    void step(Tensor params, Tensor gradient);

    /** The learning rate the next step uses. */
    double learningRate();

    /** Sets the learning rate for the following steps (a schedule calls this). */
    void setLearningRate(double lr);

    /** Forgets the optimizer state. */
    void reset();

    /** Releases the state tensors. */
    @Override
    void close();
}
