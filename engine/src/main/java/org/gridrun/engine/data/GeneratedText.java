package org.gridrun.engine.data;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gridrun.engine.random.CounterRng;

/**
 * A generated text for demonstrations, mini grids and tests ({@code dataset: generated-text}): lines of one to three
 * sentences of a tiny grammar (a determiner, an adjective or none, a noun, a verb agreeing with it in number, an
 * object, a full stop), about 30 words, so that a small language model learns something in a few hundred steps.
 * {@link #write} and {@link #writeWikiText2} lay it out as files.
 */
public final class GeneratedText {
    /** The training lines of {@code generated-text}. */
    public static final int TRAIN_LINES = 4000;
    /** The held-out lines of {@code generated-text}. */
    public static final int HELD_OUT_LINES = 400;
    private static final String[] DETERMINERS = {"the", "a", "every", "one"};
    private static final String[] ADJECTIVES = {"small", "red", "old", "quick", "quiet"};
    private static final String[][] NOUNS = {{"cat", "cats"}, {"dog", "dogs"}, {"bird", "birds"}, {"child",
            "children"}};
    private static final String[][] VERBS = {{"sees", "see"}, {"likes", "like"}, {"finds", "find"}};
    private static final String[] OBJECTS = {"the mat", "a ball", "the garden", "some bread", "the river"};

    private GeneratedText() {
    }

    /** {@code lines} lines of one to three sentences each, a pure function of {@code seed}. */
    public static List<String> lines(int lines, long seed) {
        CounterRng rng = new CounterRng(seed, 0);
        List<String> out = new ArrayList<>();
        for (int l = 0; l < lines; l++) {
            StringBuilder line = new StringBuilder();
            int sentences = 1 + rng.nextInt(3);
            for (int s = 0; s < sentences; s++) {
                int plural = rng.nextInt(2);
                line.append(plural == 1 ? "the" : DETERMINERS[rng.nextInt(DETERMINERS.length)]).append(' ');
                if (rng.nextInt(2) == 0) {
                    line.append(ADJECTIVES[rng.nextInt(ADJECTIVES.length)]).append(' ');
                }
                line.append(NOUNS[rng.nextInt(NOUNS.length)][plural]).append(' ')
                        .append(VERBS[rng.nextInt(VERBS.length)][plural]).append(' ')
                        .append(OBJECTS[rng.nextInt(OBJECTS.length)]).append(" . ");
            }
            out.add(line.toString().trim());
        }
        return out;
    }

    /** Writes {@link #lines} to {@code file}. */
    public static Path write(Path file, int lines, long seed) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        return Files.write(file, lines(lines, seed), StandardCharsets.UTF_8);
    }

    /** WikiText-2's three files in {@code dir}: training, validation and test text of the given lines. */
    public static Path writeWikiText2(Path dir, int trainLines, int validLines) throws IOException {
        write(dir.resolve("wiki.train.tokens"), trainLines, 1);
        write(dir.resolve("wiki.valid.tokens"), validLines, 2);
        write(dir.resolve("wiki.test.tokens"), validLines, 3);
        return dir;
    }
}
