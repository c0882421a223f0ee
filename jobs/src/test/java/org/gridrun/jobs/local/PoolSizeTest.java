package org.gridrun.jobs.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridrun.engine.run.ExperimentRecord;
import org.gridrun.engine.run.RunDir;
import org.gridrun.engine.train.TrainerConfig;
import org.gridrun.jobs.plan.PlannedExperiment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without --jobs: one experiment a core on the host, two a GPU where every experiment trains on GPUs. */
class PoolSizeTest {
    @TempDir
    Path work;

    /** cuda sees 3 GPUs here, auto picks it; cpu has none. */
    private static int gpus(String backend) {
        return switch (backend) {
            case "cuda", "auto" -> 3;
            default -> 0;
        };
    }

    @Test
    void experimentsOnTheHostTakeOneACore() {
        PoolSize pool = PoolSize.of(experiments("cpu", "cpu"), 16, PoolSizeTest::gpus);
        assertEquals(16, pool.jobs());
        assertNull(pool.why());
        assertEquals(16, PoolSize.of(experiments("cuda", "cpu"), 16, PoolSizeTest::gpus).jobs(),
                "one experiment on the host is enough to keep a core each");
        assertEquals(16, PoolSize.of(List.of(), 16, PoolSizeTest::gpus).jobs());
    }

    @Test
    void experimentsOnGpusTakeTwoAGpu() {
        PoolSize pool = PoolSize.of(experiments("cuda", "auto", null), 16, PoolSizeTest::gpus);
        assertEquals(6, pool.jobs());
        assertEquals("2 a GPU on 3 GPUs", pool.why());
        PoolSize one = PoolSize.of(experiments("cuda"), 16, b -> 1);
        assertEquals(2, one.jobs());
        assertEquals("2 a GPU on 1 GPU", one.why());
    }

    @Test
    void theGpusJobsAreCappedByTheCores() {
        PoolSize pool = PoolSize.of(experiments("cuda"), 4, b -> 8);
        assertEquals(4, pool.jobs());
        assertEquals("2 a GPU on 8 GPUs, one a core", pool.why());
    }

    /** One staged experiment per backend; null leaves the key out (the default, auto). */
    private List<PlannedExperiment> experiments(String... backends) {
        List<PlannedExperiment> list = new ArrayList<>();
        for (int i = 0; i < backends.length; i++) {
            Map<String, Object> params = new LinkedHashMap<>();
            if (backends[i] != null) {
                params.put("backend", backends[i]);
            }
            RunDir dir = RunDir.at(work.resolve("runs/g/r/e" + i));
            ExperimentRecord record = new ExperimentRecord("g", "r", "e" + i, "id" + i, params,
                    TrainerConfig.resolve(params));
            list.add(new PlannedExperiment(record, dir, null));
        }
        return list;
    }
}
