package org.gridrun.engine.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

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

    static final TextCorpus WIKITEXT2 = new TextCorpus();

    private final DataLocation location = new DataLocation("WikiText-2", WIKITEXT2_FILES,
            List.of("wikitext-2", "wikitext2"), null, HOW_TO_GET);

    private TextCorpus() {
    }

    @Override
    public TrainTestData load(String dataDir, String envDir, DataOptions options) {
        Path dir = directory(dataDir, envDir);
        Vocabulary vocabulary = new Vocabulary();
        TokenStream train = new TokenStream("wikitext2 train", tokens(dir.resolve(WIKITEXT2_FILES.get(0)), false,
                vocabulary, true), vocabulary);
        TokenStream valid = new TokenStream("wikitext2 valid", tokens(dir.resolve(WIKITEXT2_FILES.get(1)), false,
                vocabulary, false), vocabulary);
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
        List<String> lines = readLines(file);
        int held = Math.max(1, lines.size() / 10);
        if (lines.size() < 2) {
            throw new IllegalArgumentException("text file " + file + " has " + lines.size() + " line(s); it needs at "
                    + "least 2, the last tenth being held out for evaluation");
        }
        Vocabulary vocabulary = new Vocabulary();
        String level = characters ? "character" : "word";
        int[] train = tokens(lines.subList(0, lines.size() - held), characters, vocabulary, true, file);
        vocabulary.add(UNK);
        int[] valid = tokens(lines.subList(lines.size() - held, lines.size()), characters, vocabulary, false, file);
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
        int[] train = tokens(GeneratedText.lines(GeneratedText.TRAIN_LINES, 1), false, vocabulary, true, none);
        vocabulary.add(UNK);
        int[] held = tokens(GeneratedText.lines(GeneratedText.HELD_OUT_LINES, 2), false, vocabulary, false, none);
        return new TrainTestData(new TokenStream(GENERATED + " train", train, vocabulary),
                new TokenStream(GENERATED + " held out", held, vocabulary), String.format(Locale.ROOT,
                "generated text of a small grammar (%d train / %d held-out tokens, vocabulary %d)", train.length,
                held.length, vocabulary.size()));
    }

    /** The name of the generated text's data set. */
    public static final String GENERATED = "generated-text";

    private static int[] tokens(Path file, boolean characters, Vocabulary vocabulary, boolean grow) {
        return tokens(readLines(file), characters, vocabulary, grow, file);
    }

    /** The ids of {@code lines}' tokens; new words join the vocabulary when {@code grow}, else are unknown. */
    private static int[] tokens(List<String> lines, boolean characters, Vocabulary vocabulary, boolean grow,
                                Path file) {
        int[] ids = new int[1024];
        int n = 0;
        for (int l = 0; l < lines.size(); l++) {
            List<String> words = split(lines.get(l), characters);
            words.add(Vocabulary.EOS);
            for (String word : words) {
                int id = grow ? vocabulary.add(word) : known(vocabulary, word, file, l);
                if (n == ids.length) {
                    ids = Arrays.copyOf(ids, 2 * n);
                }
                ids[n++] = id;
            }
        }
        return Arrays.copyOf(ids, n);
    }

    private static int known(Vocabulary vocabulary, String word, Path file, int line) {
        int id = vocabulary.id(word);
        if (id < 0) {
            id = vocabulary.id(UNK);
        }
        if (id < 0) {
            throw new IllegalArgumentException(file + ":" + (line + 1) + ": word '" + word + "' is not in the "
                    + "training text's vocabulary");
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

    private static List<String> readLines(Path file) {
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try (BufferedReader in = new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(file),
                decoder))) {
            List<String> lines = new ArrayList<>();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
            return lines;
        } catch (CharacterCodingException e) {
            throw new UncheckedIOException(file + " is not UTF-8 text: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
