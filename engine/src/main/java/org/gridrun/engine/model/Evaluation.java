package org.gridrun.engine.model;

/**
 * The loss and accuracy counts of a model on some examples; chunks add up with {@link #plus}.
 *
 * @param lossSum the sum of the per-example cross-entropy losses
 * @param correct how many examples the model classified correctly (arg max of the logits)
 * @param count   how many examples were evaluated
 */
public record Evaluation(double lossSum, long correct, long count) {
    /** No examples yet. */
    public static final Evaluation EMPTY = new Evaluation(0, 0, 0);

    /** The counts of this and {@code other} together. */
    public Evaluation plus(Evaluation other) {
        return new Evaluation(lossSum + other.lossSum, correct + other.correct, count + other.count);
    }

    /** The mean loss per example (NaN for no examples). */
    public double meanLoss() {
        return lossSum / count;
    }

    /** The fraction classified correctly, in [0, 1] (NaN for no examples). */
    public double accuracy() {
        return (double) correct / count;
    }
}
