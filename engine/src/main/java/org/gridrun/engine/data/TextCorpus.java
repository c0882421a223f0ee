package org.gridrun.engine.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.gridrun.engine.run.BadFileException;

/**
 * Text data sets for language models: WikiText-2 ({@code wikitext2}) and any UTF-8 file ({@code text}).
 *
 * <p>Every line becomes its tokens followed by {@link Vocabulary#EOS}: at word level the line's words split on
 * white space (WikiText's files are tokenised already, unknown words being {@code <unk>}), at character level its
 * characters (code points) one by one. The vocabulary is built from the training text in order of first
 * appearance; a word of the validation text that the training text lacks is an error (WikiText-2's splits share one
 * vocabulary), except for a user's file, whose held-out lines map unseen words to {@code <unk>} (added to the
 * vocabulary for that).
 *
 * <p>WikiText-2 is read from {@code wiki.train.tokens}, {@code wiki.valid.tokens} and {@code wiki.test.tokens} in
 * {@code data_dir}, else {@code $GRIDRUN_DATA_DIR}, each searched itself and then beneath it in {@code wikitext-2/}
 * (the folder its archive unpacks to) and {@code wikitext2/}; the validation split is the evaluation set. A user's
 * file is split by lines: the last tenth (at least one line) is held out for evaluation.
 *
 * <p>A file that is not UTF-8 text (or holds a NUL byte), too short to give tokens, or whose evaluation text holds a
 * word the training text lacks, fails with a {@link BadFileException} naming it, the byte or line, and what to do.
 */
public final class TextCorpus implements ImageSet {
    /** The file names WikiText-2 is read from. */
    public static final List<String> WIKITEXT2_FILES = List.of("wiki.train.tokens", "wiki.valid.tokens",
            "wiki.test.tokens");
    /** The training tokens of the published WikiText-2 (word level, {@code <eos>} per line): an epoch's estimate. */
    public static final int WIKITEXT2_TRAIN_TOKENS = 2_088_628;

    private static final String UNK = "<unk>";
    private static final String HOW_TO_GET = "WikiText-2 is read from the three files " + String.join(", ",
            WIKITEXT2_FILES) + "; download WikiText-2 (word level, the 'wikitext-2-v1' archive of "
            + "Merity et al., whose folder wikitext-2/ holds the three files) and set data_dir or "
            + DataLocation.ENV + " to the folder holding wikitext-2/ or the files themselves";

    /** What to do about a damaged WikiText-2 file. */
    private static final String REFETCH = "download WikiText-2 again (word level, the 'wikitext-2-v1' archive); its "
            + "files are UTF-8 text whose splits share one vocabulary";
    /** What to do about a user's text file gridrun cannot read. */
    private static final String RESAVE = "dataset text reads a UTF-8 text file of at least 2 lines; save it as "
            + "that, or give another path";

    static final TextCorpus WIKITEXT2 = new TextCorpus();

    private final DataLocation location = new DataLocation("WikiText-2", WIKITEXT2_FILES,
            List.of("wikitext-2", "wikitext2"), null, HOW_TO_GET);

    private TextCorpus() {
    }

    @Override
    public TrainTestData load(String dataDir, String envDir, DataOptions options) {
        Path dir = directory(dataDir, envDir);
        Vocabulary vocabulary = new Vocabulary();
        Path trainFile = dir.resolve(WIKITEXT2_FILES.get(0));
        Path validFile = dir.resolve(WIKITEXT2_FILES.get(1));
        TokenStream train = new TokenStream("wikitext2 train", wikiTokens(trainFile, vocabulary, true), vocabulary);
        TokenStream valid = new TokenStream("wikitext2 valid", wikiTokens(validFile, vocabulary, false), vocabulary);
        return new TrainTestData(train, valid, source(dir, train, valid));
    }

    @Override
    public Path directory(String dataDir, String envDir) {
        return location.require(dataDir, envDir, null);
    }

    @Override
    public String describeSource(String dataDir, String envDir) {
        return "WikiText-2 from " + directory(dataDir, envDir);
    }

    private static String source(Path dir, TokenStream train, TokenStream valid) {
        return String.format(Locale.ROOT, "WikiText-2 from %s (%d train / %d valid tokens, vocabulary %d)", dir,
                train.length(), valid.length(), train.vocabulary().size());
    }

    /**
     * The text of the UTF-8 file {@code path} at word or, when {@code characters}, character level: its lines but
     * the last tenth for training, those for evaluation.
     */
    public static TrainTestData file(String path, boolean characters) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("dataset text needs path: the UTF-8 text file to read");
        }
        Path file = Path.of(path);
        if (!Files.isRegularFile(file)) {
            throw new UncheckedIOException("text file " + file.toAbsolutePath() + " not found (dataset text reads the "
                    + "file given by path; for WikiText-2 use dataset wikitext2, which reads "
                    + String.join(", ", WIKITEXT2_FILES) + ")", new java.nio.file.NoSuchFileException(path));
        }
        List<String> lines = readLines(file, RESAVE);
        int held = Math.max(1, lines.size() / 10);
        if (lines.size() < 2) {
            throw new BadFileException(file, null, "has " + lines.size() + " line(s), where the last tenth (at "
                    + "least one line) is held out for evaluation and the rest trained on", RESAVE);
        }
        Vocabulary vocabulary = new Vocabulary();
        String level = characters ? "character" : "word";
        int[] train = enough(file, "its training lines hold", tokens(lines.subList(0, lines.size() - held),
                characters, vocabulary, true, file, RESAVE));
        vocabulary.add(UNK);
        int[] valid = enough(file, "its held-out lines (the last tenth) hold", tokens(lines.subList(lines.size()
                - held, lines.size()), characters, vocabulary, false, file, RESAVE));
        String name = "text " + file.getFileName();
        return new TrainTestData(new TokenStream(name + " train", train, vocabulary),
                new TokenStream(name + " held out", valid, vocabulary), String.format(Locale.ROOT,
                "%s-level text of %s (%d train / %d held-out tokens, vocabulary %d)", level, file, train.length,
                valid.length, vocabulary.size()));
    }

    /**
     * {@link GeneratedText}: {@link GeneratedText#TRAIN_LINES} training and {@link GeneratedText#HELD_OUT_LINES}
     * held-out lines at word level, the same for every run.
     */
    public static TrainTestData generated() {
        Vocabulary vocabulary = new Vocabulary();
        Path none = Path.of(GENERATED);
        int[] train = tokens(GeneratedText.lines(GeneratedText.TRAIN_LINES, 1), false, vocabulary, true, none, "");
        vocabulary.add(UNK);
        int[] held = tokens(GeneratedText.lines(GeneratedText.HELD_OUT_LINES, 2), false, vocabulary, false, none, "");
        return new TrainTestData(new TokenStream(GENERATED + " train", train, vocabulary),
                new TokenStream(GENERATED + " held out", held, vocabulary), String.format(Locale.ROOT,
                "generated text of a small grammar (%d train / %d held-out tokens, vocabulary %d)", train.length,
                held.length, vocabulary.size()));
    }

    /** The name of the generated text's data set. */
    public static final String GENERATED = "generated-text";

    /** The ids of the WikiText-2 file {@code file}'s tokens; new words join the vocabulary when {@code grow}. */
    private static int[] wikiTokens(Path file, Vocabulary vocabulary, boolean grow) {
        return enough(file, "holds", tokens(readLines(file, REFETCH), false, vocabulary, grow, file, REFETCH));
    }

    /** {@code ids}, when they are enough for a language model (two tokens: one example); else the failure. */
    private static int[] enough(Path file, String part, int[] ids) {
        if (ids.length < 2) {
            throw new BadFileException(file, null, part + " " + ids.length + " token(s) (each line's words and its "
                    + Vocabulary.EOS + "), where a language model needs at least 2", "the file is empty or cut "
                    + "short; restore it, or give a longer text");
        }
        return ids;
    }

    /** The ids of {@code lines}' tokens; new words join the vocabulary when {@code grow}, else are unknown. */
    private static int[] tokens(List<String> lines, boolean characters, Vocabulary vocabulary, boolean grow,
                                Path file, String advice) {
        int[] ids = new int[1024];
        int n = 0;
        for (int l = 0; l < lines.size(); l++) {
            List<String> words = split(lines.get(l), characters);
            words.add(Vocabulary.EOS);
            for (String word : words) {
                int id = grow ? vocabulary.add(word) : known(vocabulary, word, file, l, advice);
                if (n == ids.length) {
                    ids = Arrays.copyOf(ids, 2 * n);
                }
                ids[n++] = id;
            }
        }
        return Arrays.copyOf(ids, n);
    }

    private static int known(Vocabulary vocabulary, String word, Path file, int line, String advice) {
        int id = vocabulary.id(word);
        if (id < 0) {
            id = vocabulary.id(UNK);
        }
        if (id < 0) {
            throw new BadFileException(file, String.valueOf(line + 1), "the word " + BadFileException.excerpt(
                    word.getBytes(StandardCharsets.UTF_8), 0, 40) + " is not among the words of the training text "
                    + file.resolveSibling(WIKITEXT2_FILES.get(0)), advice);
        }
        return id;
    }

    private static List<String> split(String line, boolean characters) {
        List<String> words = new ArrayList<>();
        if (characters) {
            line.codePoints().forEach(c -> words.add(new String(Character.toChars(c))));
        } else {
            for (String w : line.trim().split("\\s+")) {
                if (!w.isEmpty()) {
                    words.add(w);
                }
            }
        }
        return words;
    }

    /**
     * The lines of the UTF-8 text {@code file}. Bytes that are not UTF-8 fail at the first of them, as does a NUL
     * byte (text holds none; a run of them is what a copy cut short by a crash leaves), naming its offset: nothing is
     * replaced, so a damaged file never trains as another text.
     */
    private static List<String> readLines(Path file, String advice) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw new BadFileException(file, "byte " + i, "a NUL byte, which text does not hold: "
                        + BadFileException.excerpt(bytes, Math.max(0, i - 8), 16), advice);
            }
        }
        return BadFileException.utf8(file, bytes, advice).lines().toList();
    }
}
