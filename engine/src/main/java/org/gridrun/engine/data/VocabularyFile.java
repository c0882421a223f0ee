package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridrun.engine.run.BadFileException;

/**
 * A run's record of its vocabulary ({@code vocabulary.txt} in the run directory, one word per line in id order), so
 * that a resumed run is known to see the same ids: the first start writes it, every later start compares the
 * vocabulary it built with it and fails with a {@link BadFileException}, naming the file and the line of the first
 * difference, when the text changed in between or the file was damaged.
 */
public final class VocabularyFile {
    /** The file's name in a run directory. */
    public static final String NAME = "vocabulary.txt";

    private static final String ADVICE = "restore the text the run started with (or this file from a copy, if it "
            + "was damaged), or start the run afresh";

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
            List<String> stored = BadFileException.utf8(file, Files.readAllBytes(file), ADVICE).lines().toList();
            for (int i = 0; i < Math.max(stored.size(), words.size()); i++) {
                String was = i < stored.size() ? stored.get(i) : null;
                String now = i < words.size() ? words.get(i) : null;
                if (!java.util.Objects.equals(was, now)) {
                    throw new BadFileException(file, String.valueOf(i + 1), "id " + i + " was " + quoted(was)
                            + " when this run started, the text gives " + quoted(now) + " now (" + words.size()
                            + " words, " + stored.size() + " before): the text or this file changed", ADVICE);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the vocabulary in " + file + ": " + e.getMessage(), e);
        }
    }

    /** The word quoted for a message, or "no word" past the end. */
    private static String quoted(String word) {
        return word == null ? "no word" : BadFileException.excerpt(word.getBytes(StandardCharsets.UTF_8), 0, 40);
    }

    /** One word per line: a character-level vocabulary's line break and backslash escaped. */
    private static String escape(String word) {
        return word.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }
}
