package org.gridrun.grids;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The grids shipped at the top of this folder ({@code grids/*.yaml}, which {@code --grid NAME} finds) are well-formed
 * in the grid language and expand; their keys are the trainer's, checked where the trainer's schema lives.
 */
class ShippedGridsTest {

    /** Accepts every key the file uses, so that only the grid language itself is checked. */
    private static KeySchema anyKey(Set<String> keys) {
        return new KeySchema() {
            @Override
            public Set<String> keys() {
                return keys;
            }

            @Override
            public Optional<String> problem(String key, Object value) {
                return Optional.empty();
            }
        };
    }

    @Test
    void everyShippedGridLoadsAndExpands() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(Path.of(""))) {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        for (Path file : files) {
            Set<String> keys = keysOf(file);
            GridFile grid = GridFile.load(file, anyKey(keys));
            assertFalse(grid.expandAll().isEmpty(), file.toString());
        }
    }

    /** The keys the file uses: those a load with no keys but {@code seed} calls unknown, and {@code seed}. */
    private static Set<String> keysOf(Path file) {
        String unknown = "unknown key '";
        Set<String> keys = new HashSet<>(Set.of("seed"));
        try {
            GridFile.load(file, anyKey(keys));
        } catch (GridException e) {
            e.problems().stream().map(GridException.Problem::message).filter(m -> m.startsWith(unknown))
                    .forEach(m -> keys.add(m.substring(unknown.length(), m.indexOf('\'', unknown.length()))));
        }
        return keys;
    }
}
