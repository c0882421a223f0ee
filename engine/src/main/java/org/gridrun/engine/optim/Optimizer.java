package org.gridrun.engine.optim;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Map;
import org.gridrun.engine.backend.Tensor;

/**
 * Updates a flat parameter tensor from a gradient of the same layout.
 *
 * <p>Order of calls: construct for a parameter count on a backend; {@link #step} once per training iteration with
 * the aggregated gradient; {@link #reset()} to forget the state (momentum) as if new; {@link #close()} at the end to
 * release the state tensors. The optimizer reads the gradient and does not modify it. Between steps, a checkpoint
 * calls {@link #saveState}; a resumed run calls {@link #restoreState} on a new optimizer of the same configuration
 * and size before its first step, and the following steps are exactly those the saved one would have made.
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

    /** The tensors of the optimizer's state (momentum), which SmaQ's memory mode stores through a codec. */
    default java.util.List<Tensor> stateTensors() {
        return java.util.List.of();
    }

    /** Forgets the optimizer state. */
    void reset();

    /** Writes the state that decides the next steps: learning rate and state tensors (momentum). */
    void saveState(DataOutput out) throws IOException;

    /**
     * Reads what {@link #saveState} wrote.
     *
     * <p>Fails with an {@link IllegalStateException} when the saved state does not fit this optimizer's
     * configuration or size.
     */
    void restoreState(DataInput in) throws IOException;

    /** Releases the state tensors. */
    @Override
    void close();
}
