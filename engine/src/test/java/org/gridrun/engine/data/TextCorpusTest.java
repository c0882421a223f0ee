package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridrun.engine.run.BadFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** WikiText-2 and plain text files read as token streams, and the windows language models are trained on. */
class TextCorpusTest {
    @TempDir
    Path tmp;

    @Test
    void wikiText2IsReadWordByWordWithAnEndOfLineTokenAndTheTrainingVocabulary() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("wikitext-2"));
        Files.writeString(dir.resolve("wiki.train.tokens"), " = Title = \n\n the cat sat\n");
        Files.writeString(dir.resolve("wiki.valid.tokens"), "the cat\n");
        Files.writeString(dir.resolve("wiki.test.tokens"), "cat\n");
        // Found beneath the directory given, in the folder the archive unpacks to.
        TrainTestData data = DataSets.load("wikitext2", tmp.toString());
        TokenStream train = (TokenStream) data.train();
        assertEquals(List.of("=", "Title", "<eos>", "the", "cat", "sat"), train.vocabulary().words());
        assertArrayEquals(new int[] {0, 1, 0, 2, 2, 3, 4, 5, 2}, tokens(train));
        assertArrayEquals(new int[] {3, 4, 2}, tokens((TokenStream) data.test()));
        assertEquals(6, train.classes());
        assertEquals(8, train.size());
        float[] x = new float[1];
        float[] y = new float[1];
        train.copyImage(4, 0, x, y);
        assertEquals(2f, x[0]);
        assertEquals(3f, y[0]);
        assertTrue(data.source().contains("vocabulary 6"), data.source());
    }

    @Test
    void aMissingFileNamesThePathAndTheThreeFiles() throws IOException {
        Files.writeString(tmp.resolve("wiki.train.tokens"), "a b\n");
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> DataSets.load("wikitext2", tmp.toString()));
        assertTrue(e.getMessage().contains(tmp.toAbsolutePath().toString()), e.getMessage());
        for (String name : TextCorpus.WIKITEXT2_FILES) {
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
        assertTrue(e.getMessage().contains("missing in " + tmp.toAbsolutePath() + ": wiki.valid.tokens, wiki.test.tokens"),
                e.getMessage());
    }

    @Test
    void aValidationWordOutsideTheTrainingVocabularyIsAnError() throws IOException {
        Files.writeString(tmp.resolve("wiki.train.tokens"), "a b\n");
        Files.writeString(tmp.resolve("wiki.valid.tokens"), "a c\n");
        Files.writeString(tmp.resolve("wiki.test.tokens"), "a\n");
        BadFileException e = assertThrows(BadFileException.class, () -> DataSets.load("wikitext2", tmp.toString()));
        assertTrue(e.getMessage().startsWith(tmp.resolve("wiki.valid.tokens") + ":1: the word 'c' is not among the "
                + "words of the training text " + tmp.resolve("wiki.train.tokens")), e.getMessage());
    }

    @Test
    void aTextFileIsSplitByLinesAtWordOrCharacterLevel() throws IOException {
        Path file = tmp.resolve("story.txt");
        Files.writeString(file, "ab ab\nab\nab\nab\nab\nab\nab\nab\nab\nzz é\n");
        TrainTestData words = TextCorpus.file(file.toString(), false);
        TokenStream held = (TokenStream) words.test();
        // The last tenth, one line: 'zz' and 'é' are unknown to the training text.
        assertEquals(List.of("ab", "<eos>", "<unk>"), held.vocabulary().words());
        assertArrayEquals(new int[] {2, 2, 1}, tokens(held));
        TrainTestData chars = TextCorpus.file(file.toString(), true);
        TokenStream train = (TokenStream) chars.train();
        assertEquals(List.of("a", "b", " ", "<eos>", "<unk>"), train.vocabulary().words());
        assertEquals(List.of(4, 4, 2, 4, 3), java.util.Arrays.stream(tokens((TokenStream) chars.test())).boxed()
                .toList());
        assertThrows(UncheckedIOException.class, () -> TextCorpus.file(tmp.resolve("none.txt").toString(), false));
    }

    @Test
    void windowsAreTimeMajorColumnsOfTheStreamAndEachWorkerHasItsOwn() {
        Vocabulary v = new Vocabulary();
        for (int i = 0; i < 100; i++) {
            v.add("w" + i);
        }
        int[] ids = new int[23];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i;
        }
        TokenStream stream = new TokenStream("s", ids, v);
        // 4 columns of 5 tokens (the last 3 dropped); this reader has columns 2 and 3, windows of 2 steps.
        LanguageBatches b = new LanguageBatches(stream, 4, 2, 2, 2);
        assertEquals(2, b.fullWindows());
        assertEquals(2, b.windows());
        float[] x = new float[4];
        float[] y = new float[4];
        assertTrue(b.next(x, y));
        assertArrayEquals(new float[] {10, 15, 11, 16}, x);
        assertArrayEquals(new float[] {11, 16, 12, 17}, y);
        assertFalse(b.next(x, y));
        assertArrayEquals(new float[] {12, 17, 13, 18}, x);
        assertTrue(b.next(x, y));
        assertEquals(1, b.epoch());
        // Evaluation: windows of 3 steps, the last one shorter.
        LanguageBatches e = new LanguageBatches(stream, 4, 0, 4, 3);
        float[] ex = new float[12];
        float[] ey = new float[12];
        assertEquals(12, e.window(0, ex, ey));
        assertEquals(4, e.window(1, ex, ey));
        assertArrayEquals(new float[] {3, 8, 13, 18}, java.util.Arrays.copyOf(ex, 4));
        assertArrayEquals(new float[] {4, 9, 14, 19}, java.util.Arrays.copyOf(ey, 4));
    }

    private static int[] tokens(TokenStream s) {
        int[] out = new int[s.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = s.token(i);
        }
        return out;
    }
}
