package org.gridrun.grids;

import static org.gridrun.grids.Grids.each;
import static org.gridrun.grids.Grids.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NamingTest {
    @TempDir
    Path dir;

    @Test
    void quickstartNamesFollowTheFormat() {
        List<Experiment> xs = expand(dir, """
                defaults:
                  dataset: fashion-mnist
                  niters: 300
                runs:
                  quickstart:
                    prefix: qs
                    exclude: [dataset, niters]
                    seeds: 2
                    grid:
                      - method: none
                      - method: qsgd
                        bits: [2, 4]
                        bucket_size: 8192
                """);
        assertEquals(List.of(
                "qs_000_method_none,seed_1",
                "qs_001_method_none,seed_2",
                "qs_002_method_qsgd,bits_2,bucket_size_8192,seed_1",
                "qs_003_method_qsgd,bits_2,bucket_size_8192,seed_2",
                "qs_004_method_qsgd,bits_4,bucket_size_8192,seed_1",
                "qs_005_method_qsgd,bits_4,bucket_size_8192,seed_2"), each(xs, Experiment::name));
    }

    @Test
    void prefixDefaultsToTheRunName() {
        assertEquals("base_000_method_none", expand(dir, "runs: {base: {grid: {method: none}}}\n").get(0).name());
    }

    @Test
    void aFlagPrintsItsKeyAlone() {
        assertEquals("r_000_method_qsgd,flag_,bits_4",
                expand(dir, "runs: {r: {grid: {method: qsgd, flag: '', bits: 4}}}\n").get(0).name());
    }

    @Test
    void numbersPrintAsWritten() {
        List<Experiment> xs = expand(dir, "runs: {r: {grid: {lr: [0.0001, 1e-3, 0.50, 1_000], nesterov: True}}}\n");
        assertEquals(List.of("r_000_lr_0.0001,nesterov_True", "r_001_lr_1e-3,nesterov_True",
                "r_002_lr_0.50,nesterov_True", "r_003_lr_1_000,nesterov_True"), each(xs, Experiment::name));
    }

    @Test
    void excludedKeysStayInParamsButNotInNames() {
        Experiment x = expand(dir, """
                runs:
                  r:
                    exclude: niters
                    grid: {niters: 10, method: nuq}
                """).get(0);
        assertEquals("r_000_method_nuq", x.name());
        assertEquals(10L, x.params().get("niters"));
    }

    @Test
    void everyKeyExcludedLeavesPrefixAndIndex() {
        assertEquals("r_000", expand(dir, "runs: {r: {exclude: [bits], grid: {bits: 2}}}\n").get(0).name());
    }

    @Test
    void indexIsPaddedToThreeDigitsAndGrowsBeyond() {
        String values = IntStream.range(0, 1001).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        List<Experiment> xs = expand(dir, "runs: {r: {grid: {bits: [" + values + "]}}}\n");
        assertEquals("r_007_bits_7", xs.get(7).name());
        assertEquals("r_099_bits_99", xs.get(99).name());
        assertEquals("r_1000_bits_1000", xs.get(1000).name());
    }

    @Test
    void unsafeCharactersBecomeDashes() {
        assertEquals("my-run_000_note_a-b-c-d,dataset_x-y",
                expand(dir, "runs: {r: {prefix: my run, grid: {note: \"a b/c\\td\", dataset: 'x\\y'}}}\n")
                        .get(0).name());
    }
}
