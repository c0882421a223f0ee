package org.gridrun.grids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResolveTest {
    @TempDir
    Path dir;
    Path grids;

    @BeforeEach
    void gridsDirectory() throws IOException {
        grids = Files.createDirectory(dir.resolve("grids"));
        Files.writeString(grids.resolve("nuq.yaml"), "runs: {a: {grid: {bits: 2}}}\n");
        Files.writeString(grids.resolve("quickstart.yaml"), "runs: {a: {grid: {bits: 2}}}\n");
        Files.writeString(grids.resolve("notes.txt"), "not a grid\n");
    }

    @Test
    void aNameResolvesInsideTheGridsDirectory() {
        assertEquals(grids.resolve("nuq.yaml"), GridFile.resolve("nuq", grids));
        assertEquals(grids.resolve("nuq.yaml"), GridFile.resolve("nuq.yaml", grids));
    }

    @Test
    void anExistingPathIsTakenAsGiven() throws IOException {
        Path elsewhere = Files.writeString(dir.resolve("mine.yaml"), "runs: {a: {grid: {bits: 2}}}\n");
        assertEquals(Path.of(elsewhere.toString()), GridFile.resolve(elsewhere.toString(), grids));
    }

    @Test
    void nothingMatchingListsTheGridsAndSuggests() {
        GridException e = assertThrows(GridException.class, () -> GridFile.resolve("nuqq", grids));
        assertEquals("no grid 'nuqq': found neither " + grids.resolve("nuqq.yaml") + " nor a file nuqq;"
                + " available grids: nuq, quickstart; did you mean 'nuq'?", e.getMessage());
    }

    @Test
    void aMissingGridsDirectorySaysSo() {
        Path none = dir.resolve("none");
        GridException e = assertThrows(GridException.class, () -> GridFile.resolve("nuq", none));
        assertEquals("no grid 'nuq': found neither " + none.resolve("nuq.yaml") + " nor a file nuq; " + none
                + " holds no .yaml grids", e.getMessage());
    }

    @Test
    void theGridNameIsTheFileNameWithoutExtension() {
        GridFile grid = GridFile.load(GridFile.resolve("quickstart", grids), Grids.SCHEMA);
        assertEquals("quickstart", grid.name());
        assertEquals(grids.resolve("quickstart.yaml"), grid.path());
        assertEquals("quickstart", grid.expand("a").get(0).grid());
    }
}
