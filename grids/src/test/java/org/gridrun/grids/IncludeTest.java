package org.gridrun.grids;

import static org.gridrun.grids.Grids.each;
import static org.gridrun.grids.Grids.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** include: other files' defaults, slurm settings and runs merged under the including file's. */
class IncludeTest {
    @TempDir
    Path dir;

    private GridFile load(String yaml) {
        return GridFile.load(write(dir, "g.yaml", yaml), Grids.SCHEMA);
    }

    private String failure(String yaml) {
        Path file = write(dir, "g.yaml", yaml);
        return assertThrows(GridException.class, () -> GridFile.load(file, Grids.SCHEMA)).getMessage();
    }

    @Test
    void theIncludingFileWinsAndEveryRunSeesTheMergedDefaults() {
        write(dir, "base.yaml", """
                defaults: {niters: 300, lr: 0.1}
                slurm: {partition: cpu, time: '10:00'}
                runs:
                  base: {grid: {method: none}}
                """);
        GridFile grid = load("""
                include: base.yaml
                defaults: {lr: 0.5}
                slurm: {partition: gpu}
                runs:
                  mine: {grid: {method: qsgd}}
                """);
        assertEquals(List.of("base", "mine"), grid.runNames());
        assertEquals(List.of(Map.of("niters", 300L, "lr", 0.5, "method", "none")),
                each(grid.expand("base"), Experiment::params));
        assertEquals(List.of("niters", "lr", "method"), List.copyOf(grid.expand("mine").get(0).params().keySet()));
        assertEquals(Map.of("partition", "gpu", "time", "10:00"), grid.slurm("mine").options());
        assertEquals(Optional.of(dir.resolve("base.yaml") + ":1:20"), grid.expand("mine").get(0).origin("niters"));
        assertEquals(Optional.of(dir.resolve("g.yaml") + ":2:16"), grid.expand("mine").get(0).origin("lr"));
    }

    @Test
    void includesResolveAgainstTheIncludingFileAndNest() throws IOException {
        Files.createDirectory(dir.resolve("sub"));
        write(dir, "sub/a.yaml", "include: [b.yaml]\nruns: {a: {grid: {bits: 2}}}\n");
        write(dir, "sub/b.yaml", "defaults: {lr: 0.1}\nruns: {b: {grid: {bits: 4}}}\n");
        GridFile grid = load("include: sub/a.yaml\n");
        assertEquals(List.of("b", "a"), grid.runNames());
        assertEquals(Map.of("lr", 0.1, "bits", 2L), grid.expand("a").get(0).params());
        assertEquals("g", grid.expand("b").get(0).grid());
    }

    @Test
    void aFileIncludedTwiceIsReadOnce() {
        write(dir, "common.yaml", "runs: {common: {grid: {bits: 2}}}\n");
        write(dir, "a.yaml", "include: common.yaml\nruns: {a: {grid: {bits: 3}}}\n");
        write(dir, "b.yaml", "include: common.yaml\nruns: {b: {grid: {bits: 4}}}\n");
        assertEquals(List.of("common", "a", "b", "g"),
                load("include: [a.yaml, b.yaml]\nruns: {g: {grid: {bits: 5}}}\n").runNames());
    }

    @Test
    void anIncludeCycleNamesTheChain() {
        write(dir, "a.yaml", "include: b.yaml\n");
        write(dir, "b.yaml", "runs: {b: {grid: {bits: 1}}}\ninclude: [g.yaml]\n");
        Path g = dir.resolve("g.yaml");
        assertEquals(dir.resolve("b.yaml") + ":2:11: include cycle: " + g + " -> " + dir.resolve("a.yaml") + " -> "
                + dir.resolve("b.yaml") + " -> " + g + "; a file cannot include itself, directly or through other"
                + " files", failure("include: a.yaml\n"));
        assertEquals(g + ":1:10: include cycle: " + g + " -> " + g + "; a file cannot include itself, directly or"
                + " through other files", failure("include: g.yaml\nruns: {r: {grid: {bits: 1}}}\n"));
    }

    @Test
    void problemsInsideAnIncludedFileNameThatFileAfterTheIncludingFilesOwn() {
        write(dir, "other.yaml", "runs:\n  o:\n    grid:\n      bitz: 2\n");
        Path g = dir.resolve("g.yaml");
        assertEquals(g + ":2:25: bits must be an integer, found 'x'\n" + dir.resolve("other.yaml")
                + ":4:7: unknown key 'bitz'; did you mean 'bits'?",
                failure("include: other.yaml\nruns: {r: {grid: {bits: x}}}\n"));
    }

    @Test
    void aRunDefinedInTwoFilesIsAProblem() {
        write(dir, "base.yaml", "runs:\n  r: {grid: {bits: 2}}\n");
        assertEquals(dir.resolve("g.yaml") + ":3:3: run 'r' is also defined at " + dir.resolve("base.yaml")
                + ":2:3; a run name may be used once across a grid file and the files it includes",
                failure("include: base.yaml\nruns:\n  r: {grid: {bits: 4}}\n"));
    }

    @Test
    void missingAndMalformedIncludesAreProblemsOfTheIncludingFile() {
        assertEquals(dir.resolve("g.yaml") + ":1:10: include: no file " + dir.resolve("nope.yaml"),
                failure("include: nope.yaml\nruns: {r: {grid: {bits: 1}}}\n"));
        assertEquals(dir.resolve("g.yaml") + ":1:10: include takes a file name or a list of file names, found a"
                + " mapping", failure("include: {a: 1}\nruns: {r: {grid: {bits: 1}}}\n"));
        write(dir, "broken.yaml", "runs: [\n");
        assertEquals(dir.resolve("broken.yaml") + ":2:1: expected the node content, but found '<stream end>' (while"
                + " parsing a flow node at 2:1)", failure("include: broken.yaml\nruns: {r: {grid: {bits: 1}}}\n"));
    }

    @Test
    void aGridNeedsRunsSomewhere() {
        write(dir, "defaults.yaml", "defaults: {lr: 0.1}\n");
        assertEquals(dir.resolve("g.yaml") + ":1:1: no 'runs:' in the grid file; add a mapping of run names to runs",
                failure("include: defaults.yaml\n"));
    }
}
