package org.gridrun.jobs.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged figure specs: seeded mutations ({@link Mutations}) of the repository's {@code figures/nuq.yaml}, read as
 * {@code grid-run figures --spec} reads them, through the command line's error handler. Each ends read or in exit 2
 * with lines that each name the file ({@code file:line:col} for every problem found). Prints one summary line.
 */
class FigureSpecFuzzTest {
    private static final long SEED = 20_261_130L;

    @TempDir
    Path tmp;

    @Test
    void damagedFigureSpecsAreReadOrNamedAtTheirLines() throws IOException {
        byte[] good = Files.readAllBytes(Path.of("..", "figures", "nuq.yaml"));
        FuzzTally tally = new FuzzTally("figure spec (grid-run figures)", SEED);
        Path file = tmp.resolve("nuq.yaml");
        for (Mutations.Mutation m : new Mutations(SEED).of(good, 240)) {
            Files.write(file, m.bytes());
            Cli.Result r = FuzzTally.throughErrorHandler(() -> FiguresCommand.readSpec(file, file.toString()));
            boolean everyLineNamed = r.err().strip().lines().allMatch(l -> l.contains(file.toString()));
            tally.record(m, file, r.exit(), everyLineNamed ? firstLine(r.err()) : r.err());
        }
        tally.finish();
    }

    private static String firstLine(String err) {
        return err.strip().lines().findFirst().orElse("");
    }
}
