package org.gridrun.engine.data;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The words of a text data set and their ids, numbered in the order they first appear in the training text (as
 * PyTorch's {@code word_language_model} {@code Dictionary} numbers them), so the same training file always gives the
 * same ids.
 */
public final class Vocabulary {
    /** The token that ends every line. */
    public static final String EOS = "<eos>";

    private final List<String> words = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();

    /** The id of {@code word}, adding it when new. */
    int add(String word) {
        Integer id = ids.get(word);
        if (id != null) {
            return id;
        }
        words.add(word);
        ids.put(word, words.size() - 1);
        return words.size() - 1;
    }

    /** The id of {@code word}, or −1 when it is not in the vocabulary. */
    public int id(String word) {
        return ids.getOrDefault(word, -1);
    }

    /** The words in id order. */
    public List<String> words() {
        return List.copyOf(words);
    }

    /** The number of words. */
    public int size() {
        return words.size();
    }
}
