package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridrun.engine.data.DataOptions;
import org.gridrun.engine.data.DataSets;
import org.gridrun.engine.data.TextCorpus;
import org.gridrun.engine.data.TokenStream;
import org.gridrun.engine.data.VocabularyFile;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.run.RunState;
import org.gridrun.engine.run.StatusEntry;
import org.gridrun.engine.train.TrainerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text readers of language models on damaged files: WikiText-2's three {@code wiki.*.tokens}, a user's file
 * ({@code dataset text}, word and character level), and the {@code vocabulary.txt} a run keeps. Each seeded mutation
 * ({@link Mutations#ofText}: the kinds of every format, NUL bytes, bytes that are not UTF-8, lines of a million
 * bytes), and each file emptied or missing, ends read or in exit 2 naming the file, through the command line's error
 * handler; a file that is not UTF-8 or holds a NUL byte is never read, and is refused at the byte where that starts.
 * One damaged WikiText-2 file also goes through the whole {@code train} command: FAILED with the message, exit 2.
 * Prints one summary line per reader.
 */
class TextFilesFuzzTest {
    private static final long SEED = 20_261_132L;
    private static final String[] WORDS = {"the", "valkyria", "chronicles", "<unk>", "@-@", "café", "naïve", "1", "=",
        "game", "of", "in", "a", "is", "Ω", "battle", "unit", "."};

    @TempDir
    Path tmp;

    @Test
    void damagedWikiText2FilesAreReadOrNamed() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("wikitext-2"));
        Random random = new Random(SEED);
        byte[][] good = {text(random, 40), text(random, 8), text(random, 8)};
        for (int f = 0; f < good.length; f++) {
            Files.write(dir.resolve(TextCorpus.WIKITEXT2_FILES.get(f)), good[f]);
        }
        FuzzTally tally = new FuzzTally("WikiText-2 wiki.*.tokens (dataset wikitext2)", SEED);
        for (int f = 0; f < good.length; f++) {
            Path file = dir.resolve(TextCorpus.WIKITEXT2_FILES.get(f));
            boolean read = f < 2;
            for (Mutations.Mutation m : withEmpty(new Mutations(SEED + f).ofText(good[f], 90))) {
                Files.write(file, m.bytes());
                expectRefusal(tally, m, read, tally.judge(m, file, () -> loadWikiText(dir)));
            }
            Files.delete(file);
            tally.judge(missing(), dir, () -> loadWikiText(dir));
            Files.write(file, good[f]);
        }
        tally.finish();
    }

    @Test
    void damagedTextFilesAreReadOrNamed() throws IOException {
        byte[] good = text(new Random(SEED + 3), 40);
        Path file = tmp.resolve("corpus.txt");
        FuzzTally tally = new FuzzTally("text file (dataset text, word and character level)", SEED);
        List<Mutations.Mutation> cases = withEmpty(new Mutations(SEED + 3).ofText(good, 180));
        for (int i = 0; i < cases.size(); i++) {
            Mutations.Mutation m = cases.get(i);
            Files.write(file, m.bytes());
            boolean characters = i % 2 == 1;
            expectRefusal(tally, m, true, tally.judge(m, file, () -> TextCorpus.file(file.toString(), characters)));
        }
        Files.delete(file);
        tally.judge(missing(), file, () -> TextCorpus.file(file.toString(), false));
        tally.finish();
    }

    @Test
    void aDamagedVocabularyFileOfARunIsNamedWithItsLine() throws IOException {
        Path text = Files.write(tmp.resolve("corpus.txt"), text(new Random(SEED + 4), 40));
        FuzzTally tally = new FuzzTally("vocabulary.txt of a run (a resumed language model)", SEED);
        for (boolean characters : new boolean[] {false, true}) {
            TokenStream train = (TokenStream) TextCorpus.file(text.toString(), characters).train();
            Path run = Files.createDirectories(tmp.resolve("run-" + characters));
            VocabularyFile.keep(run, train.vocabulary());
            Path file = run.resolve(VocabularyFile.NAME);
            byte[] good = Files.readAllBytes(file);
            for (Mutations.Mutation m : new Mutations(SEED + 5).ofText(good, 60)) {
                Files.write(file, m.bytes());
                String outcome = tally.judge(m, file, () -> {
                    VocabularyFile.keep(run, train.vocabulary());
                    return null;
                });
                boolean sameWords = new String(m.bytes(), StandardCharsets.UTF_8).lines().toList()
                        .equals(new String(good, StandardCharsets.UTF_8).lines().toList());
                if (outcome.equals(FuzzTally.READ) && !sameWords) {
                    tally.breach(m, "a vocabulary file with other words was taken for the run's");
                }
                assertTrue(Files.readAllBytes(file).length == m.bytes().length, "the damaged file is left as it is");
            }
        }
        tally.finish();
    }

    @Test
    void aTrainerGivenADamagedWikiTextFileRecordsFailedNamingItAndExitsTwo() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("wikitext-2"));
        Random random = new Random(SEED);
        for (String name : TextCorpus.WIKITEXT2_FILES) {
            Files.write(dir.resolve(name), text(random, 12));
        }
        Path valid = dir.resolve(TextCorpus.WIKITEXT2_FILES.get(1));
        Files.write(valid, "the game\n\u00e9t\u00e9 game\n".getBytes(StandardCharsets.ISO_8859_1));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("model", "lstm");
        params.put("dataset", "wikitext2");
        params.put("data_dir", tmp.toString());
        params.put("lstm_units", 8L);
        params.put("bptt", 4L);
        params.put("batch_size", 2L);
        params.put("niters", 2L);
        RunDir run = RunDir.at(tmp.resolve("runs/g/r/lm"));
        run.writeExperiment(new ExperimentRecord("g", "r", "lm", "id-lm", params, TrainerConfig.resolve(params)));
        Cli.Result r = Cli.run(tmp, "train", run.path().toString());
        String expected = valid + ", byte 9: not UTF-8 text: '\\xe9t\\xe9 game…'; download WikiText-2 again (word "
                + "level, the 'wikitext-2-v1' archive); its files are UTF-8 text whose splits share one vocabulary";
        assertEquals(2, r.exit(), r.err());
        assertEquals("grid-run: " + expected, r.err().strip());
        StatusEntry last = run.status().current().orElseThrow();
        assertEquals(RunState.FAILED + " " + expected, last.state() + " " + last.detail());
    }

    /** A file that refuses to be read must say so: text that is not UTF-8 or holds a NUL byte is never taken. */
    private static void expectRefusal(FuzzTally tally, Mutations.Mutation m, boolean read, String outcome) {
        boolean notText = m.kind() == Mutations.Kind.NUL || m.kind() == Mutations.Kind.INVALID_UTF8;
        if (read && notText && outcome.equals(FuzzTally.READ)) {
            tally.breach(m, "a file that is not UTF-8 text was read");
        }
    }

    private static Object loadWikiText(Path dir) {
        return DataSets.load("wikitext2", dir.toString(), new DataOptions(1, false));
    }

    /** The mutations, then the file emptied. */
    private static List<Mutations.Mutation> withEmpty(List<Mutations.Mutation> mutations) {
        List<Mutations.Mutation> all = new ArrayList<>(mutations);
        all.add(new Mutations.Mutation(Mutations.Kind.TRUNCATE, new byte[0]));
        return all;
    }

    /** The file deleted: counted as a truncation to nothing that took the name too. */
    private static Mutations.Mutation missing() {
        return new Mutations.Mutation(Mutations.Kind.DELETE, new byte[0]);
    }

    /** {@code lines} lines of WikiText-2's look: space-separated tokens, some headings, some blank lines. */
    private static byte[] text(Random random, int lines) {
        StringBuilder text = new StringBuilder();
        for (int l = 0; l < lines; l++) {
            if (l % 7 == 3) {
                text.append(" = ").append(WORDS[random.nextInt(WORDS.length)]).append(" = \n");
            } else if (l % 7 == 4) {
                text.append(" \n");
            } else {
                for (int w = 0; w < 4 + random.nextInt(8); w++) {
                    text.append(' ').append(WORDS[random.nextInt(WORDS.length)]);
                }
                text.append(" \n");
            }
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
