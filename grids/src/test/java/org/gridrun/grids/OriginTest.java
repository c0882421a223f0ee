package org.gridrun.grids;

import static org.gridrun.grids.Grids.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Experiment.origin: where each value of an experiment was written, for messages about values. */
class OriginTest {
    @TempDir
    Path dir;

    @Test
    void everyValueKnowsItsPlace() {
        List<Experiment> xs = expand(dir, """
                shared:
                  cd: &cd {cd_epochs: 30}
                defaults:
                  niters: 300
                runs:
                  r:
                    seeds: 2
                    grid:
                      method: [qsgd, {alq: *cd}]
                      lr: {linspace: [0.1, 0.2, 2]}
                """);
        String file = dir.resolve("g.yaml").toString();
        Experiment alq = xs.get(4);
        assertEquals("alq", alq.params().get("method"));
        assertEquals(Optional.of(file + ":4:11"), alq.origin("niters"));
        assertEquals(Optional.of(file + ":9:23"), alq.origin("method"));
        assertEquals(Optional.of(file + ":2:23"), alq.origin("cd_epochs"));
        assertEquals(Optional.of(file + ":10:11"), alq.origin("lr"));
        assertEquals(Optional.of(file + ":7:12"), alq.origin("seed"));
        assertEquals(Optional.of(file + ":9:16"), xs.get(0).origin("method"));
        assertEquals(Optional.empty(), alq.origin("bits"));
    }

    @Test
    void anExperimentBuiltWithoutAGridHasNoOrigins() {
        Experiment x = new Experiment("g", "r", 0, "r_000", "0123456789abcdef", Map.of("bits", 4L));
        assertEquals(Optional.empty(), x.origin("bits"));
    }
}
