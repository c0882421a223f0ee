package org.gridrun.grids;

import static org.gridrun.grids.Grids.each;
import static org.gridrun.grids.Grids.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExpansionTest {
    @TempDir
    Path dir;

    @Test
    void lastKeyVariesFastest() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      method: qsgd
                      bits: [2, 4]
                      bucket_size: [64, 128]
                """);
        assertEquals(List.of(List.of(2L, 64L), List.of(2L, 128L), List.of(4L, 64L), List.of(4L, 128L)),
                each(xs, x -> List.of(x.params().get("bits"), x.params().get("bucket_size"))));
        assertEquals(List.of("method", "bits", "bucket_size"), List.copyOf(xs.get(0).params().keySet()));
    }

    @Test
    void subGridsAreJoinedInOrder() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      - method: none
                      - method: qsgd
                        bits: [8, 2]
                      - method: nuq
                """);
        assertEquals(List.of("none", "qsgd", "qsgd", "nuq"), each(xs, x -> x.params().get("method")));
        assertEquals(List.of(Map.of("method", "none"), Map.of("method", "qsgd", "bits", 8L),
                Map.of("method", "qsgd", "bits", 2L), Map.of("method", "nuq")), each(xs, Experiment::params));
        assertEquals(List.of(0, 1, 2, 3), each(xs, Experiment::index));
    }

    @Test
    void aScalarIsAOneValueAxis() {
        List<Experiment> xs = expand(dir, "runs: {r: {grid: {method: qsgd, bits: 4}}}\n");
        assertEquals(1, xs.size());
        assertEquals(Map.of("method", "qsgd", "bits", 4L), xs.get(0).params());
    }

    @Test
    void valuesAreTypedAndKeepTheirText() {
        Experiment x = expand(dir, """
                runs:
                  r:
                    grid: {lr: 0.0001, momentum: 1e-4, nesterov: true, flag: '', note: "4", bits: 0x10}
                """).get(0);
        assertEquals(Map.of("lr", 1e-4, "momentum", 1e-4, "nesterov", true, "flag", "", "note", "4", "bits", 16L),
                x.params());
        assertEquals(List.of("0.0001", "1e-4", "true", "", "4", "0x10"), List.copyOf(x.texts().values()));
    }

    @Test
    void runsAreNamedAndKeepFileOrder() {
        GridFile grid = Grids.load(dir, """
                runs:
                  zeta: {grid: {method: none}}
                  alpha: {grid: {method: [qsgd, nuq]}}
                """);
        assertEquals(List.of("zeta", "alpha"), grid.runNames());
        assertEquals("g", grid.name());
        assertEquals(List.of("nuq"), each(grid.expand("alpha").subList(1, 2), x -> x.params().get("method")));
        List<Experiment> all = grid.expandAll();
        assertEquals(List.of("zeta", "alpha", "alpha"), each(all, Experiment::run));
        assertEquals(List.of(0, 0, 1), each(all, Experiment::index));
        assertEquals(List.of("g", "g", "g"), each(all, Experiment::grid));
    }

    @Test
    void seedsCountAddsTheLastAndFastestAxis() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    seeds: 3
                    grid: {bits: [2, 4]}
                """);
        assertEquals(List.of(List.of(2L, 1L), List.of(2L, 2L), List.of(2L, 3L), List.of(4L, 1L), List.of(4L, 2L),
                List.of(4L, 3L)), each(xs, x -> List.copyOf(x.params().values())));
        assertEquals(List.of("bits", "seed"), List.copyOf(xs.get(0).params().keySet()));
    }

    @Test
    void seedsListIsTakenAsWritten() {
        List<Experiment> xs = expand(dir, """
                defaults: {seed: 99, niters: 5}
                runs:
                  r:
                    seeds: [1, 7]
                    grid: {bits: 2}
                """);
        assertEquals(List.of(1L, 7L), each(xs, x -> x.params().get("seed")));
        assertEquals(List.of("niters", "bits", "seed"), List.copyOf(xs.get(0).params().keySet()));
    }

    @Test
    void defaultsComeFirstAndAreOverriddenInPlace() {
        GridFile grid = Grids.load(dir, """
                defaults:
                  dataset: fashion-mnist
                  niters: 300
                runs:
                  a: {grid: {method: qsgd, niters: 10}}
                  b: {grid: [{method: none}, {dataset: cifar10, method: nuq}]}
                """);
        assertEquals(List.of(Map.of("dataset", "fashion-mnist", "niters", 10L, "method", "qsgd")),
                each(grid.expand("a"), Experiment::params));
        assertEquals(List.of("dataset", "niters", "method"), List.copyOf(grid.expand("a").get(0).params().keySet()));
        assertEquals(List.of("fashion-mnist", "cifar10"), each(grid.expand("b"), x -> x.params().get("dataset")));
        assertEquals(List.of("dataset", "niters", "method"), List.copyOf(grid.expand("b").get(1).params().keySet()));
    }

    @Test
    void anEmptySubGridStandsForTheDefaults() {
        List<Experiment> xs = expand(dir, """
                defaults: {method: none}
                runs:
                  r: {seeds: 1, grid: [{}, {method: qsgd}]}
                """);
        assertEquals(List.of("r_000_method_none,seed_1", "r_001_method_qsgd,seed_1"), each(xs, Experiment::name));
    }

    @Test
    void anchorsAliasesAndMergeKeysWork() {
        List<Experiment> xs = expand(dir, """
                shared:
                  base: &base {dataset: mnist, lr: 0.1, niters: 5}
                  quant: &quant {method: qsgd, lr: 0.5, bits: [2, 4]}
                  widths: &widths [64, 128]
                runs:
                  r:
                    grid:
                      - <<: *base
                        lr: 0.01
                        method: none
                      - <<: [*quant, *base]
                        bucket_size: *widths
                """);
        assertEquals(List.of("dataset", "lr", "niters", "method"), List.copyOf(xs.get(0).params().keySet()));
        assertEquals(0.01, xs.get(0).params().get("lr"));
        assertEquals(List.of("method", "lr", "bits", "dataset", "niters", "bucket_size"),
                List.copyOf(xs.get(1).params().keySet()));
        assertEquals(0.5, xs.get(1).params().get("lr"));
        assertEquals(List.of(List.of(2L, 64L), List.of(2L, 128L), List.of(4L, 64L), List.of(4L, 128L)),
                each(xs.subList(1, 5), x -> List.of(x.params().get("bits"), x.params().get("bucket_size"))));
    }

    @Test
    void duplicateConfigsCollapseAndIndicesCountWhatRemains() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    prefix: d
                    grid:
                      - {method: qsgd, lr: [0.5, 1, 0.50]}
                      - {lr: [1.0, 2], method: qsgd}
                      - {method: qsgd, lr: 5e-1}
                """);
        assertEquals(List.of(0.5, 1L, 2L), each(xs, x -> x.params().get("lr")));
        assertEquals(List.of("d_000_method_qsgd,lr_0.5", "d_001_method_qsgd,lr_1", "d_002_lr_2,method_qsgd"),
                each(xs, Experiment::name));
    }

    @Test
    void paramsAreUnmodifiable() {
        Experiment x = expand(dir, "runs: {r: {grid: {bits: 2}}}\n").get(0);
        assertThrows(UnsupportedOperationException.class,
                () -> x.params().put("bits", 3L));
    }
}
