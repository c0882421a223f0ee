package org.gridrun.grids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Test helpers: write a YAML text to a file, load it with {@link TestSchema}, pick fields from experiments.
 */
final class Grids {
    static final KeySchema SCHEMA = new TestSchema();

    private Grids() {
    }

    static Path write(Path dir, String fileName, String yaml) {
        try {
            return Files.writeString(dir.resolve(fileName), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static GridFile load(Path dir, String yaml) {
        return GridFile.load(write(dir, "g.yaml", yaml), SCHEMA);
    }

    /** The experiments of the file's only or first run. */
    static List<Experiment> expand(Path dir, String yaml) {
        GridFile grid = load(dir, yaml);
        return grid.expand(grid.runNames().get(0));
    }

    /** The exception that loading {@code yaml} as {@code g.yaml} throws. */
    static GridException failure(Path dir, String yaml) {
        Path file = write(dir, "g.yaml", yaml);
        return assertThrows(GridException.class, () -> GridFile.load(file, SCHEMA));
    }

    /** Asserts that loading {@code yaml} as {@code g.yaml} fails with exactly {@code expected}, each after the file. */
    static void assertFails(Path dir, String yaml, String... expected) {
        String file = dir.resolve("g.yaml").toString();
        assertEquals(String.join("\n", Arrays.stream(expected).map(line -> file + ":" + line).toList()),
                failure(dir, yaml).getMessage());
    }

    static <T> List<T> each(List<Experiment> experiments, Function<Experiment, T> field) {
        return experiments.stream().map(field).toList();
    }
}
