package org.gridrun.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 200 generated malformed grid files ({@link MalformedGrids}, seeded): each is bad input, exit 2, with a message that
 * says where (file:line:col for text, the file for bytes that are not text) and no stack trace. Prints its figures
 * on one line.
 */
class MalformedGridsTest {
    private static final long SEED = 20_260_511L;
    private static final int PER_CATEGORY = 25;
    private static final Pattern AT_LINE_AND_COLUMN = Pattern.compile("^grid-run: \\S+:\\d+:\\d+: ");

    @TempDir
    Path workdir;

    @Test
    void everyMalformedGridIsBadInputWithALocatedMessageAndNoStackTrace() throws IOException {
        assertEquals(0, plan(write(new MalformedGrids.Case("control", "valid.yaml",
                MalformedGrids.VALID.getBytes(), Map.of()), -1)).exit(), "the valid grid they start from plans");
        List<MalformedGrids.Case> cases = new MalformedGrids(SEED).generate(PER_CATEGORY);
        List<String> failures = new ArrayList<>();
        Map<String, Integer> perCategory = new LinkedHashMap<>();
        int exit2 = 0;
        int atLineAndColumn = 0;
        int atFile = 0;
        int stackTraces = 0;
        for (int i = 0; i < cases.size(); i++) {
            MalformedGrids.Case c = cases.get(i);
            perCategory.merge(c.category(), 1, Integer::sum);
            Path file = write(c, i);
            Cli.Result result = plan(file);
            boolean lineAndColumn = AT_LINE_AND_COLUMN.matcher(result.err()).find();
            boolean fileOnly = !lineAndColumn && result.err().startsWith("grid-run: ")
                    && result.err().contains(file.toString());
            boolean trace = result.err().contains("\tat ") || result.err().contains("Exception");
            exit2 += result.exit() == 2 ? 1 : 0;
            atLineAndColumn += lineAndColumn ? 1 : 0;
            atFile += fileOnly ? 1 : 0;
            stackTraces += trace ? 1 : 0;
            if (result.exit() != 2 || trace || !(lineAndColumn || fileOnly && !c.isText())) {
                failures.add(c.category() + " " + file + " (exit " + result.exit() + "):\n"
                        + new String(c.bytes(), java.nio.charset.StandardCharsets.UTF_8).lines().limit(30)
                        .map(l -> "    | " + l).reduce("", (a, b) -> a + b + "\n") + "  said: " + result.err()
                        + result.out());
            }
        }
        System.out.printf(Locale.ROOT, "malformed grids, seed %d: %d files (%s); %d exit 2, %d located at "
                + "file:line:col and %d at the file (bytes that are not text, a file name), %d stack traces%n",
                SEED, cases.size(), perCategory.toString().replaceAll("[{}]", "").replace("=", " "), exit2,
                atLineAndColumn, atFile, stackTraces);
        assertTrue(failures.isEmpty(), failures.size() + " malformed grids were not clean bad input:\n"
                + String.join("\n", failures));
        assertEquals(200, cases.size());
    }

    @Test
    void theMainCommandTurnsAwayOneOfEachCategoryTheSameWay() throws IOException {
        List<MalformedGrids.Case> cases = new MalformedGrids(SEED).generate(1);
        for (int i = 0; i < cases.size(); i++) {
            Path file = write(cases.get(i), 1000 + i);
            Cli.Result result = Cli.run(workdir, "--grid", file.toString(), "--dry-run");
            assertEquals(2, result.exit(), cases.get(i).category() + ": " + result.err());
            assertTrue(result.err().startsWith("grid-run: ") && !result.err().contains("\tat "), result.err());
        }
    }

    private Cli.Result plan(Path file) {
        return Cli.run(workdir, "plan", "--grid", file.toString());
    }

    /** Writes a case and the files it includes into a folder of its own. */
    private Path write(MalformedGrids.Case c, int index) throws IOException {
        Path dir = Files.createDirectories(workdir.resolve("cases").resolve(String.valueOf(index)));
        for (Map.Entry<String, String> other : c.others().entrySet()) {
            Files.writeString(dir.resolve(other.getKey()), other.getValue());
        }
        return Files.write(dir.resolve(c.file()), c.bytes());
    }
}
