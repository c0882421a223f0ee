package org.gridrun.engine.compress;

/**
 * A compression method whose workers exchange several rounds per step, each round an all-reduce that every later
 * round depends on (PowerSGD sums its left factors, orthonormalises the sum, then sums its right factors).
 *
 * <p>One {@link #encode} per worker cannot express that: a worker's second message depends on the sum of everyone's
 * first. {@link #step} therefore runs one step of all the workers together, as a simulated cluster would, and leaves
 * each worker's instance with the state its own process would have. {@code encode} and {@code decode} stay valid and
 * are exactly a step of one worker alone: the payload holds what that worker sends over all rounds, and decoding it
 * reconstructs the step's result, which a single-worker tool (compress, bench) needs.
 *
 * <p>Order of calls, on instances made by {@link #copy} of one prototype and bound to one layout: every step, one
 * call of {@code step} on any instance of the group (by convention the first), passing all of them in worker order;
 * or, with a single worker, {@code encode} then {@code decode}. Do not mix the two in one run. Checkpoints save and
 * restore each instance's state between steps, as for any compressor.
 *
 * <p>{@link Compressors#create} never wraps a collective method in {@link ErrorFeedback}, whose residual would see
 * only one worker's half of the rounds: a method that keeps a residual keeps its own ({@code error_feedback: true}
 * is accepted and changes nothing).
 */
public interface CollectiveCompressor extends Compressor {
    /**
     * Runs one step of every worker: worker {@code w} holds {@code gradients[w]}, and the average of what the
     * workers' rounds reconstruct is written into {@code averaged}, whose length is that of every gradient.
     *
     * <p>{@code workers} must be the group's instances in worker order, this one among them. The gradients are not
     * modified. Afterwards {@link #sentBits()} of each instance is what that worker put on the wire.
     */
    void step(CollectiveCompressor[] workers, float[][] gradients, float[] averaged);

    /** The bits this instance sent in its last step or {@code encode}, summed over the rounds. */
    long sentBits();

    /** The bytes this instance sent in its last step or {@code encode}: each round's bits rounded up, summed. */
    long sentBytes();
}
