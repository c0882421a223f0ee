package org.gridrun.grids;

import static org.gridrun.grids.Grids.assertFails;
import static org.gridrun.grids.Grids.each;
import static org.gridrun.grids.Grids.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** zip groups: keys that vary together, one axis at the place of {@code zip:}. */
class ZipTest {
    @TempDir
    Path dir;

    @Test
    void aZipGroupIsOneAxisAtItsPlace() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      method: [none, qsgd]
                      zip: {lr: [0.1, 0.05], batch_size: [128, 64]}
                      bits: 4
                """);
        assertEquals(List.of("r_000_method_none,lr_0.1,batch_size_128,bits_4",
                "r_001_method_none,lr_0.05,batch_size_64,bits_4", "r_002_method_qsgd,lr_0.1,batch_size_128,bits_4",
                "r_003_method_qsgd,lr_0.05,batch_size_64,bits_4"), each(xs, Experiment::name));
    }

    @Test
    void severalGroupsAreSeveralAxes() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      zip:
                        - {lr: [0.1, 0.2], momentum: [0.9, 0.8]}
                        - {bits: [2, 4], bucket_size: [64, 128]}
                """);
        assertEquals(List.of("r_000_lr_0.1,momentum_0.9,bits_2,bucket_size_64",
                "r_001_lr_0.1,momentum_0.9,bits_4,bucket_size_128", "r_002_lr_0.2,momentum_0.8,bits_2,bucket_size_64",
                "r_003_lr_0.2,momentum_0.8,bits_4,bucket_size_128"), each(xs, Experiment::name));
    }

    @Test
    void zippedValuesMayBeGeneratedOrCarryOverrides() {
        List<Experiment> xs = expand(dir, """
                runs:
                  r:
                    grid:
                      zip:
                        bits: {range: [2, 4]}
                        method: [qsgd, {nuq: {mul: [0.5, 0.25]}}]
                """);
        assertEquals(List.of("r_000_bits_2,method_qsgd", "r_001_bits_3,method_nuq,mul_0.5",
                "r_002_bits_3,method_nuq,mul_0.25"), each(xs, Experiment::name));
    }

    @Test
    void aZipGroupInTheDefaultsGivesWayKeyByKey() {
        List<Experiment> xs = expand(dir, """
                defaults:
                  zip: {lr: [0.1, 0.05], batch_size: [128, 64]}
                runs:
                  r: {grid: [{method: none}, {method: qsgd, lr: 0.5}]}
                """);
        assertEquals(List.of("r_000_lr_0.1,batch_size_128,method_none", "r_001_lr_0.05,batch_size_64,method_none",
                "r_002_lr_0.5,batch_size_128,method_qsgd", "r_003_lr_0.5,batch_size_64,method_qsgd"),
                each(xs, Experiment::name));
    }

    @Test
    void listsOfUnequalLengthNameBothLengths() {
        assertFails(dir, """
                runs:
                  r:
                    grid:
                      zip: {lr: [0.1, 0.05], batch_size: [128, 64, 32]}
                """, "4:42: zip: batch_size has 3 values but lr has 2; zipped keys need lists of the same length");
    }

    @Test
    void zipShapeProblems() {
        assertFails(dir, "runs: {r: {grid: {zip: 3}}}\n",
                "1:24: zip takes a mapping of keys to lists of equal length, or a list of such mappings; found '3'");
        assertFails(dir, "runs: {r: {grid: {zip: {}, method: none}}}\n",
                "1:24: zip: an empty group; give it keys with lists of equal length");
        assertFails(dir, "runs: {r: {grid: {zip: {zip: {bits: [1]}}}}}\n",
                "1:25: zip groups do not nest; list several groups as zip: [{…}, {…}]");
        assertFails(dir, "runs: {r: {grid: {zip: {bitz: [1], lr: [2]}}}}\n",
                "1:25: unknown key 'bitz'; did you mean 'bits'?");
    }

    @Test
    void aZippedKeyMayNotBeSetAgain() {
        assertFails(dir, "runs: {r: {grid: {zip: {lr: [0.1], bits: [2]}, lr: 0.5}}}\n",
                "1:48: lr is already set at line 1; a sub-grid sets each key once, counting its zip groups and"
                        + " overrides");
    }
}
