package org.gridrun.grids;

import static org.gridrun.grids.Grids.each;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The example grids under {@code src/test/resources/grids} load and expand as documented. */
class ExampleGridsTest {

    private static GridFile example(String name) throws URISyntaxException {
        Path dir = Path.of(ExampleGridsTest.class.getResource("/grids").toURI());
        return GridFile.load(GridFile.resolve(name, dir), Grids.SCHEMA);
    }

    @Test
    void quickstart() throws URISyntaxException {
        GridFile grid = example("quickstart");
        assertEquals(List.of("quickstart"), grid.runNames());
        List<Experiment> xs = grid.expand("quickstart");
        assertEquals(6, xs.size());
        assertEquals("qs_002_method_qsgd,bits_2,bucket_size_8192,seed_1", xs.get(2).name());
        assertEquals(List.of("dataset", "niters", "method", "bits", "bucket_size", "seed"),
                List.copyOf(xs.get(2).params().keySet()));
        assertEquals("fashion-mnist", xs.get(2).params().get("dataset"));
    }

    @Test
    void nuq() throws URISyntaxException {
        GridFile grid = example("nuq");
        assertEquals(List.of("baselines", "adaptive"), grid.runNames());
        assertEquals(List.of("base_000_lr_0.1,method_none,seed_1", "base_001_lr_0.1,method_none,seed_2",
                "base_002_lr_0.1,method_none,seed_3", "base_003_lr_0.1,method_qsgd,seed_1",
                "base_004_lr_0.1,method_qsgd,seed_2", "base_005_lr_0.1,method_qsgd,seed_3"),
                each(grid.expand("baselines"), Experiment::name));
        List<Experiment> adaptive = grid.expand("adaptive");
        assertEquals(7, adaptive.size());
        assertEquals("adaptive_000_lr_0.1,bits_2,bucket_size_8192,method_nuq", adaptive.get(0).name());
        assertEquals("adaptive_006_lr_0.0001,method_alq,bits_3,nesterov_true,flag_", adaptive.get(6).name());
        assertEquals(0.9, adaptive.get(6).params().get("momentum"));
        assertEquals(13, grid.expandAll().size());
    }
}
