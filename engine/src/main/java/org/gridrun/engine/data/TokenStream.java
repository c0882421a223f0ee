package org.gridrun.engine.data;

import org.gridrun.engine.random.CounterRng;

/**
 * One split of a text data set as a stream of token ids: to the trainer a set of {@code tokens − 1} examples, example
 * i being token i with token i + 1 as its class, read in windows by {@link LanguageBatches} rather than drawn at
 * random.
 */
public final class TokenStream implements ImageData {
    private static final ImageShape SHAPE = new ImageShape(1, 1, 1);

    private final String name;
    private final int[] tokens;
    private final Vocabulary vocabulary;

    TokenStream(String name, int[] tokens, Vocabulary vocabulary) {
        if (tokens.length < 2) {
            throw new IllegalArgumentException(name + " holds " + tokens.length + " tokens; a language model needs "
                    + "at least 2");
        }
        this.name = name;
        this.tokens = tokens;
        this.vocabulary = vocabulary;
    }

    /** The token at {@code position}. */
    public int token(int position) {
        return tokens[position];
    }

    /** The number of tokens. */
    public int length() {
        return tokens.length;
    }

    /** The vocabulary the ids index (the training split's, shared by all splits). */
    public Vocabulary vocabulary() {
        return vocabulary;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int size() {
        return tokens.length - 1;
    }

    @Override
    public ImageShape shape() {
        return SHAPE;
    }

    @Override
    public int classes() {
        return vocabulary.size();
    }

    @Override
    public int label(int image) {
        return tokens[image + 1];
    }

    @Override
    public void copyImage(int image, int row, float[] x, float[] y) {
        x[row] = tokens[image];
        y[row] = tokens[image + 1];
    }

    @Override
    public int augmentationDraws() {
        return 0;
    }

    @Override
    public void copyAugmented(int image, int row, CounterRng draws, float[] x, float[] y) {
        copyImage(image, row, x, y);
    }

    @Override
    public boolean decodesOnDemand() {
        return false;
    }
}
