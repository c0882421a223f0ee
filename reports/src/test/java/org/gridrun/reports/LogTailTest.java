package org.gridrun.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailTest {
    @TempDir
    Path tmp;

    @Test
    void readsTheLastLinesOfALogLargerThanItsWindow() throws IOException {
        Path log = tmp.resolve("log");
        Files.writeString(log, IntStream.range(0, 20_000).mapToObj(i -> "line " + i)
                .collect(Collectors.joining("\n", "", "\n")));
        List<String> tail = LogTail.read(log, 3);
        assertEquals(List.of("line 19997", "line 19998", "line 19999"), tail);
    }

    @Test
    void aShortLogIsReadWholeAndAMissingOneIsEmpty() throws IOException {
        Path log = Files.writeString(tmp.resolve("log"), "a\nb");
        assertEquals(List.of("a", "b"), LogTail.read(log, 50));
        assertEquals(List.of(), LogTail.read(tmp.resolve("none"), 50));
    }
}
