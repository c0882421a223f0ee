package org.gridrun.engine.train;

import java.util.Locale;

/**
 * The number a run is judged by: the test accuracy of a classifier, the test perplexity of a language model (whose
 * next-token accuracy is recorded too, but is not what its papers compare). Every place that shows a run's result in
 * one number (the console's lines and summary, {@code status}, the report's tables) shows this one.
 */
public enum Headline {
    /** {@code Vacc}, a fraction in [0, 1], shown in percent; higher is better. */
    ACCURACY("Vacc", "test accuracy", "%", 100) {
        @Override
        public double of(double loss, double accuracy) {
            return accuracy;
        }
    },
    /** {@code Vppl}, the exponential of the mean test cross-entropy per token; lower is better. */
    PERPLEXITY("Vppl", "test perplexity", "", 1) {
        @Override
        public double of(double loss, double accuracy) {
            return Math.exp(loss);
        }
    };

    private final String metric;
    private final String label;
    private final String unit;
    private final double scale;

    Headline(String metric, String label, String unit, double scale) {
        this.metric = metric;
        this.label = label;
        this.unit = unit;
        this.scale = scale;
    }

    /** The headline of a language model ({@code true}) or a classifier. */
    public static Headline of(boolean languageModel) {
        return languageModel ? PERPLEXITY : ACCURACY;
    }

    /** The headline value of an evaluation with this mean test loss and accuracy. */
    public abstract double of(double loss, double accuracy);

    /** The metric's name in the store. */
    public String metric() {
        return metric;
    }

    /** What it is called in text: {@code test accuracy}, {@code test perplexity}. */
    public String label() {
        return label;
    }

    /** The factor from the recorded value to the shown one (100 for a fraction shown in percent). */
    public double scale() {
        return scale;
    }

    /** Whether a higher value is the better result. */
    public boolean higherIsBetter() {
        return this == ACCURACY;
    }

    /** A recorded value as shown: {@code 84.32%}, {@code 123.45}. */
    public String format(double value) {
        return String.format(Locale.ROOT, "%.2f", value * scale) + unit;
    }

    /**
     * A run's last headline value.
     *
     * @param headline what it is
     * @param value    its recorded value
     */
    public record Value(Headline headline, double value) {
        /** As a sentence's part: {@code test accuracy 84.32%}, {@code test perplexity 123.45}. */
        public String labelled() {
            return headline.label() + " " + headline.format(value);
        }
    }
}
