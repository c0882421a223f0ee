package org.gridrun.grids;

import static org.gridrun.grids.Grids.assertFails;
import static org.gridrun.grids.Grids.each;
import static org.gridrun.grids.Grids.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample generator: random values from a seed, the same every time a grid is read. */
class SamplesTest {
    @TempDir
    Path dir;

    private List<Object> values(String key, String sample) {
        return each(expand(dir, "runs: {r: {grid: {" + key + ": " + sample + "}}}\n"), x -> x.params().get(key));
    }

    // Golden: a grid's sampled values must not change between gridrun versions, or its experiments get new ids.
    // Checked against SplitMix64 written out in Python, the algorithm SplittableRandom documents.
    @Test
    void uniformDrawsAreSealed() {
        assertEquals(List.of("r_000_lr_0.0609905417655", "r_001_lr_0.0771203581536", "r_002_lr_0.0973902478228"),
                each(expand(dir, "runs: {r: {grid: {lr: {sample: uniform, low: 0.01, high: 0.1, n: 3, seed: 1}}}}\n"),
                        Experiment::name));
    }

    @Test
    void uniformAndLoguniformFollowTheDocumentedDraws() {
        SplittableRandom oracle = new SplittableRandom(42);
        List<Object> uniform = new ArrayList<>();
        List<Object> log = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            uniform.add(rounded(-1 + 3 * oracle.nextDouble()));
        }
        oracle = new SplittableRandom(42);
        for (int i = 0; i < 20; i++) {
            log.add(rounded(Math.exp(Math.log(1e-4) + (Math.log(1.0) - Math.log(1e-4)) * oracle.nextDouble())));
        }
        assertEquals(uniform, values("lr", "{sample: uniform, low: -1, high: 2, n: 20, seed: 42}"));
        assertEquals(log, values("lr", "{sample: loguniform, low: 1e-4, high: 1, n: 20, seed: 42}"));
        log.forEach(x -> assertTrue((double) x >= 1e-4 && (double) x <= 1, x.toString()));
    }

    @Test
    void intIncludesBothBoundsAndChoicePicksWrittenValues() {
        List<Object> ints = values("bits", "{sample: int, low: 1, high: 3, n: 60, seed: 7}");
        assertEquals(Set.of(1L, 2L, 3L), Set.copyOf(ints));
        assertEquals(3, ints.size(), "identical configs run once");
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    seeds: 2
                    grid: {method: {sample: choice, values: [qsgd, nuq, none], n: 2, seed: 3}}
                """);
        SplittableRandom oracle = new SplittableRandom(3);
        List<String> methods = List.of("qsgd", "nuq", "none");
        String first = methods.get(oracle.nextInt(3));
        String second = methods.get(oracle.nextInt(3));
        assertEquals(List.of(first, first, second, second), each(xs, x -> x.params().get("method")));
        assertEquals("r_002_method_" + second + ",seed_1", xs.get(2).name());
    }

    @Test
    void theSameSeedGivesTheSameValues() {
        String sample = "{sample: loguniform, low: 0.001, high: 0.1, n: 5, seed: 9}";
        assertEquals(values("lr", sample), values("lr", sample));
    }

    @Test
    void badSamplesNameTheField() {
        assertFails(dir, "runs: {r: {grid: {lr: {sample: unifrom, low: 0, high: 1, n: 2, seed: 1}}}}\n",
                "1:32: sample must be one of uniform, loguniform, int, choice, found 'unifrom'; did you mean"
                        + " 'uniform'?");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: uniform, low: 0, n: 2, seed: 1}}}}\n",
                "1:23: sample: uniform needs 'high:'");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: uniform, low: 0, hgh: 1, n: 2, seed: 1}}}}\n",
                "1:23: sample: uniform needs 'high:'", "1:49: sample: unknown field 'hgh'; did you mean 'high'?"
                        + " (sample takes sample, low, high, values, n, seed)");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: choice, values: [1], low: 0, n: 2, seed: 1}}}}\n",
                "1:53: sample: low is not used by choice (it takes values, n, seed)");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: uniform, low: 1, high: 1, n: 2, seed: 1}}}}\n",
                "1:46: sample: low must be below high, found low 1 and high 1");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: loguniform, low: 0, high: 1, n: 2, seed: 1}}}}\n",
                "1:49: sample: loguniform needs low above 0, found low 0 and high 1");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: uniform, low: 0, high: 1, n: 0, seed: 1}}}}\n",
                "1:61: sample: n must be an integer from 1 to 100000, found '0'");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: uniform, low: 0, high: x, n: 2, seed: 1}}}}\n",
                "1:55: sample: high must be a finite number, found 'x'");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: choice, values: 3, n: 2, seed: s}}}}\n",
                "1:63: sample: seed must be an integer, found 's'");
        assertFails(dir, "runs: {r: {grid: {lr: {sample: choice, values: [[1]], n: 2, seed: 1}}}}\n",
                "1:48: sample: values must be a non-empty list of values, found a list of 1 items, not all single"
                        + " values");
    }

    private static Object rounded(double x) {
        return new BigDecimal(x).round(new MathContext(12)).doubleValue();
    }
}
