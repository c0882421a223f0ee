package org.gridrun.grids;

import static org.gridrun.grids.Grids.assertFails;
import static org.gridrun.grids.Grids.each;
import static org.gridrun.grids.Grids.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A value with overrides: the value times the product of its override mapping, the seed's deep_product. */
class OverridesTest {
    @TempDir
    Path dir;

    @Test
    void anOverrideRidesOnItsValueAndFollowsItsKey() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      method: [qsgd, qinf, {nuq: {mul: 0.5}}]
                      bits: [2, 4]
                """);
        assertEquals(List.of("r_000_method_qsgd,bits_2", "r_001_method_qsgd,bits_4", "r_002_method_qinf,bits_2",
                "r_003_method_qinf,bits_4", "r_004_method_nuq,mul_0.5,bits_2", "r_005_method_nuq,mul_0.5,bits_4"),
                each(xs, Experiment::name));
        assertEquals(List.of("method", "mul", "bits"), List.copyOf(xs.get(4).params().keySet()));
        assertEquals(Map.of("method", "nuq", "mul", 0.5, "bits", 2L), xs.get(4).params());
    }

    @Test
    void blockStyleOverridesWithSeveralKeysKeepTheirOrder() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      method:
                        - amq: {amq_lr: 0.7, amq_epochs: 40}
                        - trn
                      bits: 3
                """);
        assertEquals(List.of("r_000_method_amq,amq_lr_0.7,amq_epochs_40,bits_3", "r_001_method_trn,bits_3"),
                each(xs, Experiment::name));
    }

    @Test
    void anOverrideMappingIsAProductAndMayHoldListsZipsAndOverrides() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      method:
                        - nuq:
                            mul: [0.5, 0.25]
                            bits: [2, {3: {bucket_size: 64}}]
                      seed: 1
                """);
        assertEquals(List.of("r_000_method_nuq,mul_0.5,bits_2,seed_1",
                "r_001_method_nuq,mul_0.5,bits_3,bucket_size_64,seed_1",
                "r_002_method_nuq,mul_0.25,bits_2,seed_1", "r_003_method_nuq,mul_0.25,bits_3,bucket_size_64,seed_1"),
                each(xs, Experiment::name));
        assertEquals(3L, xs.get(1).params().get("bits"));
    }

    @Test
    void aListOfOverrideMappingsIsTheirUnion() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      method:
                        alq: [{cd_epochs: 30}, {cd_epochs: 30, symmetric: ''}, {inv: ''}]
                """);
        assertEquals(List.of("r_000_method_alq,cd_epochs_30", "r_001_method_alq,cd_epochs_30,symmetric_",
                "r_002_method_alq,inv_"), each(xs, Experiment::name));
    }

    @Test
    void aKeyWithOneValueMayCarryOverridesDirectly() {
        List<Experiment> xs = expand(dir, "runs: {r: {grid: {niters: {30: {lr: [0.1, 0.2]}}, method: none}}}\n");
        assertEquals(List.of("r_000_niters_30,lr_0.1,method_none", "r_001_niters_30,lr_0.2,method_none"),
                each(xs, Experiment::name));
        assertEquals(30L, xs.get(0).params().get("niters"));
    }

    @Test
    void overridesComeFromAnchorsToo() {
        List<Experiment> xs = expand(dir, """
                shared:
                  cd: &cd {cd_epochs: 30}
                runs:
                  r:
                    exclude: [cd_epochs]
                    grid:
                      method: [{alq: *cd}, {alq_nb: *cd}]
                """);
        assertEquals(List.of("r_000_method_alq", "r_001_method_alq_nb"), each(xs, Experiment::name));
        assertEquals(30L, xs.get(1).params().get("cd_epochs"));
    }

    @Test
    void aSubGridsOverrideBeatsADefaultInTheDefaultsPlace() {
        List<Experiment> xs = expand(dir, """
                defaults: {mul: 0.3, niters: 5}
                runs:
                  r:
                    grid:
                      method: [qsgd, {nuq: {mul: 0.5}}]
                """);
        assertEquals(List.of(Map.of("mul", 0.3, "niters", 5L, "method", "qsgd"),
                Map.of("mul", 0.5, "niters", 5L, "method", "nuq")), each(xs, Experiment::params));
        assertEquals(List.of("mul", "niters", "method"), List.copyOf(xs.get(1).params().keySet()));
        assertEquals(List.of("r_000_mul_0.3,niters_5,method_qsgd", "r_001_mul_0.5,niters_5,method_nuq"),
                each(xs, Experiment::name));
    }

    @Test
    void aSubGridsKeyReplacesADefaultWithItsOverrides() {
        List<Experiment> xs = expand(dir, """
                defaults:
                  method: {nuq: {mul: 0.5}}
                runs:
                  r: {grid: [{bits: 2}, {method: qsgd, bits: 2}]}
                """);
        assertEquals(List.of(Map.of("method", "nuq", "mul", 0.5, "bits", 2L), Map.of("method", "qsgd", "bits", 2L)),
                each(xs, Experiment::params));
    }

    @Test
    void overridesThatGiveTheSameConfigRunOnce() {
        List<Experiment> xs = expand(dir, "runs: {r: {grid: {method: [{nuq: {mul: 0.5}}, {nuq: {mul: 0.50}}]}}}\n");
        assertEquals(1, xs.size());
    }

    @Test
    void aKeySetTwiceInOneSubGridIsAProblem() {
        assertFails(dir, """
                runs:
                  r:
                    grid:
                      method: [qsgd, {nuq: {bits: 3}}]
                      bits: [2, 4]
                """, "5:7: bits is already set at line 4; a sub-grid sets each key once, counting its zip groups"
                + " and overrides");
        assertFails(dir, "runs: {r: {grid: {method: {nuq: {method: qsgd}}}}}\n",
                "1:34: method is already set at line 1; a sub-grid sets each key once, counting its zip groups and"
                        + " overrides");
    }

    @Test
    void anOverrideMayNotSetTheSeedOfARunWithSeeds() {
        assertFails(dir, "runs:\n  r:\n    seeds: 2\n    grid: {method: [none, {nuq: {seed: 3}}]}\n",
                "4:34: seed is also set by 'seeds:' at line 3; keep one of them");
    }

    @Test
    void overrideValuesAndKeysAreChecked() {
        assertFails(dir, """
                runs:
                  r:
                    grid:
                      method: [{nuk: {mul: 0.5}}, {nuq: {mull: 0.5, bits: two}}]
                """, "4:17: method must be one of none, qsgd, qinf, trn, nuq, alq, alq_nb, amq, amq_nb, powersgd,"
                        + " found 'nuk'", "4:42: unknown key 'mull'; did you mean 'mul'?",
                "4:59: bits must be an integer, found 'two'");
    }

    @Test
    void malformedOverridesSayWhatAValueMayBe() {
        assertFails(dir, "runs: {r: {grid: {method: [{nuq: }]}}}\n",
                "1:33: nuq: overrides are a mapping of keys to values, or a list of such mappings; found nothing");
        assertFails(dir, "runs: {r: {grid: {method: [{nuq: {}}]}}}\n",
                "1:34: nuq: an empty mapping of overrides; write the value alone");
        assertFails(dir, "runs: {r: {grid: {method: [{nuq: 1, alq: 2}]}}}\n",
                "1:28: method: a mapping here must be a generator (range, linspace, logspace, geomspace, sample) or a"
                        + " value with its overrides, such as {nuq: {mul: 0.5}}; found a mapping with keys 'nuq',"
                        + " 'alq'");
        assertFails(dir, "runs: {r: {grid: {lr: {linspce: [0, 1, 3]}}}}\n",
                "1:23: lr: a mapping here must be a generator (range, linspace, logspace, geomspace, sample) or a"
                        + " value with its overrides, such as {nuq: {mul: 0.5}}; found a mapping with key 'linspce';"
                        + " did you mean 'linspace'?");
        assertFails(dir, "runs: {r: {grid: {method: [{nuq: [{mul: 1}, 2]}]}}}\n",
                "1:28: method: a mapping here must be a generator (range, linspace, logspace, geomspace, sample) or a"
                        + " value with its overrides, such as {nuq: {mul: 0.5}}; found a mapping with key 'nuq'");
    }
}
