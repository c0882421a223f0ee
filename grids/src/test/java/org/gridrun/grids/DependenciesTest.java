package org.gridrun.grids;

import static org.gridrun.grids.Grids.assertFails;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** after: runs whose experiments wait for another run's, all of them or those with matching values. */
class DependenciesTest {
    @TempDir
    Path dir;

    private static final String RUNS = """
            runs:
              pretrain: {seeds: 2, grid: {model: [mlp, lenet5], niters: 100}}
              eval: {seeds: 2, grid: {model: mlp, method: none}}
            """;

    @Test
    void everyFormReadsAsRunAndMatchKeys() {
        GridFile grid = Grids.load(dir, RUNS + """
                  a: {after: pretrain, grid: {bits: 2}}
                  b: {after: [pretrain, eval], grid: {bits: 2}}
                  c: {after: {run: pretrain, match: [seed, model]}, seeds: 1, grid: {model: mlp}}
                  d: {after: [eval, {run: pretrain, match: seed}], seeds: 1, grid: {bits: 2}}
                """);
        assertEquals(List.of(), grid.dependencies("pretrain"));
        assertEquals(List.of(new RunDependency("pretrain", List.of())), grid.dependencies("a"));
        assertEquals(List.of(new RunDependency("pretrain", List.of()), new RunDependency("eval", List.of())),
                grid.dependencies("b"));
        assertEquals(List.of(new RunDependency("pretrain", List.of("seed", "model"))), grid.dependencies("c"));
        assertEquals(List.of(new RunDependency("eval", List.of()), new RunDependency("pretrain", List.of("seed"))),
                grid.dependencies("d"));
    }

    @Test
    void aRunMayWaitForARunOfAnIncludedFile() {
        Grids.write(dir, "base.yaml", RUNS);
        GridFile grid = Grids.load(dir, "include: base.yaml\nruns: {mine: {after: eval, grid: {bits: 2}}}\n");
        assertEquals(List.of(new RunDependency("eval", List.of())), grid.dependencies("mine"));
    }

    @Test
    void unknownRunsSuggestAndSelfOrRepeatedRunsAreRefused() {
        assertFails(dir, RUNS + """
                  a: {after: pretrian, grid: {bits: 2}}
                  b: {after: [b, eval, eval], grid: {bits: 2}}
                """,
                "4:14: after: no run 'pretrian' in this grid; runs are: pretrain, eval, a, b; did you mean"
                        + " 'pretrain'?",
                "5:15: after: run 'b' cannot wait for itself",
                "5:24: after names run 'eval' twice; keep one");
    }

    @Test
    void matchKeysMustBeKeysThatBothRunsSet() {
        assertFails(dir, RUNS + """
                  a: {after: {run: pretrain, match: [modle]}, grid: {model: mlp}}
                  b: {after: {run: pretrain, match: [niters]}, grid: {model: mlp}}
                  c: {after: {run: eval, match: method}, grid: {model: mlp}}
                """,
                "4:38: unknown key 'modle'; did you mean 'model'?",
                "5:38: after: run 'b' never sets 'niters', so it cannot be matched; match on keys that both runs set",
                "6:33: after: run 'c' never sets 'method', so it cannot be matched; match on keys that both runs set");
    }

    @Test
    void malformedDependenciesSayWhatAfterTakes() {
        assertFails(dir, RUNS + """
                  a: {after: {rn: eval}, grid: {bits: 2}}
                  b: {after: [[eval]], grid: {bits: 2}}
                  c: {after: {run: eval, match: [[seed]]}, grid: {bits: 2}}
                """,
                "4:14: after: a dependency needs 'run:' with a run name, found none",
                "4:15: after: unknown field 'rn'; did you mean 'run'? (a dependency takes run, match)",
                "5:15: after takes a run name, {run: name, match: [keys]}, or a list of these; found a list",
                "6:34: after: match takes a key or a list of keys, found a list");
    }

    @Test
    void runsThatWaitForEachOtherAreACircleReportedWhereItCloses() {
        assertFails(dir, """
                runs:
                  a: {after: c, grid: {bits: 2}}
                  b: {after: a, grid: {bits: 2}}
                  c: {after: [b], grid: {bits: 2}}
                  d: {after: a, grid: {bits: 2}}
                """,
                "3:14: after: runs wait for each other in a circle, a -> c -> b -> a, so none could start; drop one "
                        + "of these 'after:' entries");
    }
}
