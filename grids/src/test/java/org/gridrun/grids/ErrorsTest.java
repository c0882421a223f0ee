package org.gridrun.grids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every problem a grid file can have, with its exact place and message. */
class ErrorsTest {
    @TempDir
    Path dir;

    /** Asserts that loading {@code yaml} fails with exactly {@code expected}, each line prefixed by the file. */
    private void assertFails(String yaml, String... expected) {
        String file = dir.resolve("g.yaml").toString();
        GridException e = Grids.failure(dir, yaml);
        assertEquals(String.join("\n", Arrays.stream(expected).map(line -> file + ":" + line).toList()),
                e.getMessage());
    }

    @Test
    void unknownKeySuggestsTheClosest() {
        assertFails("""
                runs:
                  r:
                    grid:
                      method: qsgd
                      bucketsize: 8192
                """, "5:7: unknown key 'bucketsize'; did you mean 'bucket_size'?");
    }

    @Test
    void aValueOutsideTheKeysChoicesSuggestsTheClosest() {
        assertFails("""
                runs:
                  r:
                    grid:
                      model: [mlp, lenet]
                """, "4:20: model must be one of [mlp, lenet5, resnet20], found 'lenet'; "
                + "did you mean 'lenet5'?");
    }

    @Test
    void aRunNamedDotOrDotDotIsRefusedForItWouldWriteOutsideItsGrid() {
        assertFails("runs:\n  ..: {grid: {bits: 2}}\n  .: {grid: {bits: 2}}\n",
                "2:3: run name '..' names no directory of its own (runs/GRID/.. is the grid's or its parent); use "
                        + "letters or digits",
                "3:3: run name '.' names no directory of its own (runs/GRID/. is the grid's or its parent); use "
                        + "letters or digits");
    }

    @Test
    void aGridFileNamedDotDotIsRefused() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("...yaml"), "runs: {r: {grid: {bits: 2}}}\n");
        GridException e = assertThrows(GridException.class, () -> GridFile.load(file, new TestSchema()));
        assertEquals(file + ": the grid is named after its file, and '..' names no directory of its own under "
                + "runs/; rename the file", e.getMessage());
    }

    @Test
    void gridsNamedAfterFoldersOfTheBuildOrOfFiguresAreRefused() throws Exception {
        for (String name : new String[] {"src", "target", "figures"}) {
            Path file = java.nio.file.Files.writeString(dir.resolve(name + ".yaml"), "runs: {r: {grid: {bits: 2}}}\n");
            GridException e = assertThrows(GridException.class, () -> GridFile.load(file, new TestSchema()));
            assertEquals(file + ": the grid is named after its file, and reports/" + name + "/ is "
                    + (name.equals("figures") ? "where grid-run figures writes" : "a folder of gridrun's own build")
                    + ", which its report would overwrite; rename the file", e.getMessage());
        }
    }

    @Test
    void aLongValueIsQuotedInPart() {
        assertFails("runs:\n  r: " + "x".repeat(200) + "\n",
                "2:6: run 'r' must be a mapping with a 'grid:' key; found '" + "x".repeat(80) + "…'");
    }

    @Test
    void unknownKeyWithNothingCloseSuggestsNothing() {
        assertFails("runs: {r: {grid: {method: qsgd, zzz: 1}}}\n", "1:33: unknown key 'zzz'");
    }

    @Test
    void problemHasFileLineColumnAndDetail() {
        GridException e = Grids.failure(dir, """
                runs:
                  r:
                    grid:
                      method: qsgd
                      bits: four
                """);
        assertEquals(dir.resolve("g.yaml").toString(), e.file());
        assertEquals(5, e.line());
        assertEquals(13, e.column());
        assertEquals("bits must be an integer, found 'four'", e.detail());
    }

    @Test
    void wrongTypeInAListPointsAtTheItem() {
        assertFails("runs:\n  r:\n    grid:\n      bits: [2, four]\n", "4:17: bits must be an integer, found 'four'");
    }

    @Test
    void emptyListIsAnEmptyProduct() {
        assertFails("runs:\n  r:\n    grid:\n      method: qsgd\n      bits: []\n",
                "5:13: bits: an empty list gives an empty product; give at least one value or remove the key");
    }

    @Test
    void emptyGridIsRefused() {
        String message = "run 'r' has an empty grid; give it a mapping of keys to values, or a list of such mappings";
        assertFails("runs:\n  r:\n    grid: []\n", "3:11: " + message);
        assertFails("runs:\n  r:\n    grid: {}\n", "3:11: " + message);
    }

    @Test
    void duplicateRunNamesGiveBothLines() {
        assertFails("""
                runs:
                  r:
                    grid: {method: none}
                  s:
                    grid: {method: qsgd}
                  r:
                    grid: {method: nuq}
                """, "6:3: duplicate key 'r' at lines 2 and 6; a key may appear once in a mapping");
    }

    @Test
    void duplicateKeysInAGridAreRefused() {
        assertFails("runs:\n  r:\n    grid:\n      bits: 2\n      method: none\n      bits: 4\n",
                "6:7: duplicate key 'bits' at lines 4 and 6; a key may appear once in a mapping");
    }

    @Test
    void unknownRunAskedForListsRunsAndSuggests() {
        GridFile grid = Grids.load(dir, "runs: {quickstart: {grid: {bits: 2}}, nuq: {grid: {bits: 4}}}\n");
        GridException e = assertThrows(GridException.class, () -> grid.expand("quikstart"));
        assertEquals("no run 'quikstart' in " + grid.path() + "; runs are: quickstart, nuq; did you mean 'quickstart'?",
                e.getMessage());
        assertEquals(0, e.line());
        assertEquals("no run 'foo' in " + grid.path() + "; runs are: quickstart, nuq",
                assertThrows(GridException.class, () -> grid.expand("foo")).getMessage());
    }

    @Test
    void malformedYamlGivesTheParsersMessageAndPlace() {
        assertFails("runs:\n  r:\n    grid:\n      method: qsgd\n     bits: 4\n",
                "5:6: expected <block end>, but found '<block mapping start>' (while parsing a block mapping at 3:5)");
        assertFails("runs:\n  r:\n    grid: [{method: qsgd}\n",
                "4:1: expected ',' or ']', but got <stream end> (while parsing a flow sequence at 3:11)");
        assertFails("runs:\n  r:\n    grid:\n\t- 1\n", "4:1: while scanning for the next token; found character"
                + " '\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation)");
    }

    @Test
    void nestedMappingAsValueIsRefused() {
        assertFails("runs:\n  r:\n    grid:\n      method: qsgd\n      bits:\n        low: 2\n",
                "6:9: bits: a mapping here must be a generator (range, linspace, logspace, geomspace, sample) or a"
                        + " value with its overrides, such as {nuq: {mul: 0.5}}; found a mapping with key 'low'");
        assertFails("runs:\n  r:\n    grid:\n      bits: [[2]]\n",
                "4:14: bits: a list item must be a single value, found a list");
    }

    @Test
    void aliasToAnUndefinedAnchorIsRefused() {
        assertFails("runs:\n  r:\n    grid:\n      <<: *missing\n      method: qsgd\n",
                "4:11: alias '*missing' names no anchor defined before it; define '&missing' first");
        assertFails("runs:\n  r:\n    grid:\n      bits: *later\nshared: &later [2]\n",
                "4:13: alias '*later' names no anchor defined before it; define '&later' first");
    }

    @Test
    void unknownTopLevelKeySuggests() {
        assertFails("run:\n  r:\n    grid: {method: none}\n",
                "1:1: unknown top-level key 'run'; did you mean 'runs'?"
                        + " (a grid file takes defaults, runs, shared, include, slurm)");
    }

    @Test
    void unknownRunKeySuggestsOrPointsAtGrid() {
        assertFails("runs:\n  r:\n    seed: 3\n    grid: {method: none}\n", "3:5: unknown run key 'seed';"
                + " trainer keys go under 'grid:' (a run takes grid, prefix, exclude, seeds, slurm, after)");
        assertFails("runs:\n  r:\n    prefx: a\n    grid: {method: none}\n", "3:5: unknown run key 'prefx';"
                + " did you mean 'prefix'? (a run takes grid, prefix, exclude, seeds, slurm, after)");
        assertFails("runs:\n  r:\n    grids: {method: none}\n",
                "2:3: run 'r' has no 'grid:'; give it a mapping of keys to values, or a list of such mappings",
                "3:5: unknown run key 'grids'; did you mean 'grid'?"
                        + " (a run takes grid, prefix, exclude, seeds, slurm, after)");
    }

    @Test
    void aMissingValueSuggestsTheFlagSpelling() {
        assertFails("runs:\n  r:\n    grid:\n      flag:\n      method: none\n",
                "4:12: flag has no value; write '' for a flag without a value");
    }

    @Test
    void mergeKeyNeedsMappings() {
        assertFails("runs:\n  r:\n    grid:\n      <<: 5\n      method: none\n", "4:11: merge key '<<' takes a"
                + " mapping or a list of mappings, such as *shared or [*a, *b]; found '5'");
    }

    @Test
    void seedsMustBeACountOrIntegers() {
        assertFails("runs:\n  r:\n    seeds: 0\n    grid: {method: none}\n", "3:12: seeds must be a count from 1"
                + " to 10000 (for seeds 1..N) or a non-empty list of integers, found '0'");
        assertFails("runs:\n  r:\n    seeds: [1, x]\n    grid: {method: none}\n",
                "3:16: seeds must be integers, found 'x'");
        assertFails("runs:\n  r:\n    seeds: 2\n    grid: {method: none, seed: 1}\n",
                "4:26: seed is also set by 'seeds:' at line 3; keep one of them");
    }

    @Test
    void fileShapeProblems() {
        assertFails("", "1:1: the grid file is empty; it needs 'runs:' with at least one run");
        assertFails("- a\n", "1:1: a grid file is a mapping with 'runs:' (and optionally 'defaults:' and"
                + " 'shared:'); found a list");
        assertFails("runs: {}\n", "1:7: runs holds no run; add at least one");
        assertFails("defaults: [1]\nruns: {r: {grid: {bits: 1}}}\n",
                "1:11: defaults must be a mapping of keys to values, found a list");
        assertFails("runs: {r: {grid: {bits: 1}}}\n---\nruns: {}\n",
                "3:1: a grid file holds one YAML document; remove this second one");
    }

    @Test
    void runShapeProblems() {
        assertFails("runs:\n  r:\n    grid: [{method: none}, 5]\n",
                "3:28: a sub-grid must be a mapping of keys to values, found '5'");
        assertFails("runs:\n  r:\n    grid: [{method: none}, {}]\n", "3:28: empty sub-grid; give it at least one key");
        assertFails("runs:\n  r b:\n    grid: {method: none}\n",
                "2:3: run name 'r b' may hold only letters, digits, '.', '_' and '-'");
        assertFails("runs:\n  r:\n    exclude: [bucketsize]\n    grid: {method: none}\n",
                "3:15: unknown key 'bucketsize'; did you mean 'bucket_size'?");
        assertFails("runs:\n  r:\n    prefix: ''\n    grid: {method: none}\n",
                "3:13: prefix must be a non-empty name, found ''");
        assertFails("runs:\n  r: 3\n", "2:6: run 'r' must be a mapping with a 'grid:' key; found '3'");
    }

    @Test
    void integerOutOfRangeIsRefused() {
        assertFails("runs:\n  r:\n    grid:\n      bits: 99999999999999999999\n",
                "4:13: integer 99999999999999999999 is out of range; the largest is 9223372036854775807");
    }

    @Test
    void everyProblemOfAFileIsReportedInSourceOrder() {
        assertFails("""
                runs:
                  r:
                    grid:
                      method: qsgd
                      bucketsize: 1
                      bits: four
                  r:
                    grid: {method: x}
                defaults: {lr: fast}
                """,
                "5:7: unknown key 'bucketsize'; did you mean 'bucket_size'?",
                "6:13: bits must be an integer, found 'four'",
                "7:3: duplicate key 'r' at lines 2 and 7; a key may appear once in a mapping",
                "9:16: lr must be a number, found 'fast'");
    }

    @Test
    void aSharedBlockWithAProblemIsReportedOnce() {
        assertFails("""
                shared: {base: &base {bits: two}}
                runs:
                  a: {grid: {<<: *base, method: none}}
                  b: {grid: [{<<: *base}, {<<: *base, lr: 1}]}
                """, "1:29: bits must be an integer, found 'two'");
    }

    @Test
    void aRunOfMoreThanAMillionExperimentsIsRefused() {
        assertFails("""
                runs:
                  r:
                    grid:
                      bits: {range: [0, 100]}
                      bucket_size: {range: [0, 100]}
                      niters: {range: [0, 101]}
                """, "4:7: run 'r' spans 1010000 experiments; a run may span at most 1000000: split it into runs, or"
                + " use sample for a random subset");
        assertFails("runs: {r: {grid: {method: {nuq: {bits: {range: [0, 1000]}, niters: {range: [0, 1001]}}}}}}\n",
                "1:33: this spans more than 1000000 combinations; split the grid, or use sample for a random subset");
    }

    @Test
    void aMissingFileIsAProblemWithoutPlace() {
        Path missing = dir.resolve("nope.yaml");
        GridException e = assertThrows(GridException.class, () -> GridFile.load(missing, Grids.SCHEMA));
        assertEquals("no grid file " + missing, e.getMessage());
    }
}
