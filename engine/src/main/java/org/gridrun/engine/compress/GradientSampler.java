package org.gridrun.engine.compress;

/**
 * Computes fresh gradients of the model being trained, for a method that fits itself to the distribution of
 * gradients rather than to the one gradient it is encoding (ALQ/AMQ's {@code number_of_samples}).
 *
 * <p>The trainer gives each worker's compressor one through {@link Compressor#bindSampler}. Draw {@code d} is the
 * gradient, at the current parameters, of a minibatch chosen by {@code d} alone from a random stream of its own, so
 * drawing changes neither the training data order nor anything a checkpoint holds, and a resumed run draws the same
 * minibatches as the uninterrupted one. Called only from inside {@code encode}, on the worker's thread.
 */
@FunctionalInterface
public interface GradientSampler {
    /** Writes the gradient of minibatch number {@code draw} into {@code out}, as long as the encoded gradients. */
    void sample(long draw, float[] out);
}
