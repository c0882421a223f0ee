package org.gridrun.grids;

import static org.gridrun.grids.Grids.assertFails;
import static org.gridrun.grids.Grids.each;
import static org.gridrun.grids.Grids.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** range, linspace, logspace and geomspace: values by rule, with short, stable texts. */
class GeneratorsTest {
    @TempDir
    Path dir;

    private List<Object> values(String generator) {
        return each(expand(dir, "runs: {r: {grid: {lr: " + generator + "}}}\n"), x -> x.params().get("lr"));
    }

    private List<String> texts(String generator) {
        return each(expand(dir, "runs: {r: {grid: {lr: " + generator + "}}}\n"), x -> x.texts().get("lr"));
    }

    @Test
    void rangeStopsBeforeStopAndKeepsIntegers() {
        assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 7L), values("{range: [2, 8]}"));
        assertEquals(List.of(0L, 3L, 6L, 9L), values("{range: [0, 10, 3]}"));
        assertEquals(List.of(5L, 3L, 1L), values("{range: [5, 0, -2]}"));
        assertEquals(List.of(0.0, 0.25, 0.5, 0.75), values("{range: [0, 1, 0.25]}"));
        assertEquals(List.of("0", "0.1", "0.2"), texts("{range: [0, 0.3, 0.1]}"));
    }

    @Test
    void linspaceIncludesBothEndsAndRoundsToTwelveDigits() {
        assertEquals(List.of("0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"),
                texts("{linspace: [0, 1, 11]}"));
        assertEquals(0.3, values("{linspace: [0, 1, 11]}").get(3));
        assertEquals(List.of("0", "0.333333333333", "0.666666666667", "1"), texts("{linspace: [0, 1, 4]}"));
        assertEquals(List.of(1L, 2L, 3L, 4L), values("{linspace: [1, 4, 4]}"));
        assertEquals(List.of(1.0, 2.0), values("{linspace: [1.0, 2, 2]}"));
        assertEquals(List.of(7L), values("{linspace: [7, 9, 1]}"));
    }

    @Test
    void logspaceAndGeomspaceFollowNumpy() {
        assertEquals(List.of(0.001, 0.01, 0.1, 1.0), values("{logspace: [-3, 0, 4]}"));
        assertEquals(List.of(1L, 10L, 100L, 1000L), values("{logspace: [0, 3, 4]}"));
        assertEquals(List.of("1", "3.16227766017", "10"), texts("{logspace: [0, 1, 3]}"));
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 1024L),
                values("{geomspace: [1, 1024, 11]}"));
        assertEquals(List.of(-1L, -10L, -100L), values("{geomspace: [-1, -100, 3]}"));
        assertEquals(List.of("0.0001", "0.001", "0.01"), texts("{geomspace: [1e-4, 0.01, 3]}"));
        assertEquals(List.of("1e-9", "1e-8"), texts("{logspace: [-9, -8, 2]}"));
    }

    @Test
    void aGeneratorMayBeAnItemOfAList() {
        assertEquals(List.of(0.5, 1.0, 1.5, 2.0, 3L), values("[0.5, {linspace: [1, 2, 3]}, 3]"));
    }

    @Test
    void generatedValuesHashLikeTheSameValuesWrittenByHand() {
        List<Experiment> generated = expand(dir, "runs: {r: {grid: {lr: {linspace: [0, 1, 11]}}}}\n");
        List<Experiment> written = expand(dir, "runs: {r: {grid: {lr: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8,"
                + " 0.9, 1]}}}\n");
        assertEquals(each(written, Experiment::id), each(generated, Experiment::id));
        assertEquals(each(written, Experiment::name), each(generated, Experiment::name));
    }

    @Test
    void generatedValuesAreCheckedAtTheGenerator() {
        assertFails(dir, "runs: {r: {grid: {bits: {linspace: [1, 2, 3]}}}}\n",
                "1:25: bits must be an integer, found '1.0'");
    }

    @Test
    void badArgumentsNameTheGeneratorAndTheArgument() {
        assertFails(dir, "runs: {r: {grid: {lr: {range: [0, 5, 0]}}}}\n", "1:38: range: step must not be 0");
        assertFails(dir, "runs: {r: {grid: {lr: {range: [5, 2]}}}}\n",
                "1:23: range gives no values: with step 1, stop (2) must be above start (5)");
        assertFails(dir, "runs: {r: {grid: {lr: {range: [0, 1, -0.5]}}}}\n",
                "1:23: range gives no values: with step -0.5, stop (1) must be below start (0)");
        assertFails(dir, "runs: {r: {grid: {lr: {range: [1, 2, 3, 4]}}}}\n",
                "1:31: range takes [start, stop] or [start, stop, step], found 4 values");
        assertFails(dir, "runs: {r: {grid: {lr: {range: 5}}}}\n",
                "1:31: range takes a list [start, stop] or [start, stop, step], found '5'");
        assertFails(dir, "runs: {r: {grid: {lr: {range: [0, 200000]}}}}\n",
                "1:23: range gives 200000 values; a generator gives at most 100000");
        assertFails(dir, "runs: {r: {grid: {lr: {linspace: [0, 1, 0]}}}}\n",
                "1:41: linspace: num must be an integer from 1 to 100000, found '0'");
        assertFails(dir, "runs: {r: {grid: {lr: {linspace: [0, 1, 2.5]}}}}\n",
                "1:41: linspace: num must be an integer from 1 to 100000, found '2.5'");
        assertFails(dir, "runs: {r: {grid: {lr: {linspace: [a, 1, 2]}}}}\n",
                "1:35: linspace: start must be a number, found 'a'");
        assertFails(dir, "runs: {r: {grid: {lr: {linspace: [0, .inf, 2]}}}}\n",
                "1:38: linspace: stop must be a finite number, found '.inf'");
        assertFails(dir, "runs: {r: {grid: {lr: {logspace: [0, 400, 2]}}}}\n",
                "1:23: logspace: a value is beyond the range of a double; use smaller exponents");
        assertFails(dir, "runs: {r: {grid: {lr: {geomspace: [0, 1, 2]}}}}\n",
                "1:36: geomspace: start and stop must be non-zero and of the same sign, found 0 and 1");
        assertFails(dir, "runs: {r: {grid: {lr: {geomspace: [[1], 1, 2]}}}}\n",
                "1:36: geomspace takes [start, stop, num] of numbers, found a list");
    }
}
