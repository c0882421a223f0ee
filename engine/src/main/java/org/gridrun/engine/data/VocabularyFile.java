package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A run's record of its vocabulary ({@code vocabulary.txt} in the run directory, one word per line in id order), so
 * that a resumed run is known to see the same ids: the first start writes it, every later start compares the
 * vocabulary it built with it and fails, naming the first difference, when the text changed in between.
 */
public final class VocabularyFile {
    /** The file's name in a run directory. */
    public static final String NAME = "vocabulary.txt";

    private VocabularyFile() {
    }

    /** Writes {@code vocabulary} into {@code runDir}, or checks it against the one written there before. */
    public static void keep(Path runDir, Vocabulary vocabulary) {
        Path file = runDir.resolve(NAME);
        List<String> words = vocabulary.words().stream().map(VocabularyFile::escape).toList();
        try {
            if (!Files.exists(file)) {
                Path tmp = runDir.resolve(NAME + ".tmp");
                Files.write(tmp, words, StandardCharsets.UTF_8);
                Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                return;
            }
            List<String> stored = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < Math.max(stored.size(), words.size()); i++) {
                String was = i < stored.size() ? stored.get(i) : "(none)";
                String now = i < words.size() ? words.get(i) : "(none)";
                if (!was.equals(now)) {
                    throw new IllegalStateException("the text's vocabulary changed since this run started: id " + i
                            + " was '" + was + "' in " + file + ", is '" + now + "' now (" + words.size() + " words, "
                            + stored.size() + " before); restore the text the run started with, or start afresh");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the vocabulary in " + file + ": " + e.getMessage(), e);
        }
    }

    /** One word per line: a character-level vocabulary's line break and backslash escaped. */
    private static String escape(String word) {
        return word.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }
}
