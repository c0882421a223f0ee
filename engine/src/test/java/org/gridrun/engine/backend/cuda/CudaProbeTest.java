package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.BackendProbe;
import org.gridrun.engine.backend.Backends;
import org.junit.jupiter.api.Test;

class CudaProbeTest {
    @Test
    void theProbeSaysWhatItFoundOrWhyNotAndAutoFollowsIt() {
        BackendProbe probe = Backends.probe().stream().filter(p -> p.name().equals("cuda")).findFirst().orElseThrow();
        assertFalse(probe.detail().isBlank(), "a probe always says what it found or why not");
        if (GpuTarget.cudaRequired()) {
            assertTrue(probe.available(), "GRIDRUN_REQUIRE_CUDA=1 but: " + probe.detail());
        }
        if (probe.available()) {
            assertTrue(probe.detail().contains("compute"), probe.detail());
        }
        try (Backend auto = Backends.open(Backends.AUTO)) {
            assertEquals(probe.available() ? "cuda" : "cpu", auto.name());
        }
    }

    @Test
    void jobsSpreadOverTheVisibleGpusOnlyWhereCudaRuns() {
        boolean available = Backends.probe().stream().anyMatch(p -> p.name().equals("cuda") && p.available());
        int gpus = Backends.gpus("cuda");
        assertTrue(available ? gpus >= 1 : gpus == 0, "cuda " + (available ? "available" : "not available")
                + " but " + gpus + " GPUs");
        assertEquals(gpus, Backends.gpus(Backends.AUTO), "auto trains where cuda does when it can");
        assertEquals(0, Backends.gpus("cpu"));
        assertEquals(0, Backends.gpus("tpu"), "an unknown backend has none");
    }

    @Test
    void theDriverLibraryIsWhereJCudaLooks() throws java.io.IOException {
        assertTrue(DriverLibrary.class.getResource("/lib/" + DriverLibrary.FILE) != null,
                DriverLibrary.FILE + " is not in JCuda's natives: update DriverLibrary.FILE with jcuda.version");
        DriverLibrary.prepare();
        java.nio.file.Path copy = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), DriverLibrary.FILE);
        try (java.io.InputStream in = DriverLibrary.class.getResourceAsStream("/lib/" + DriverLibrary.FILE)) {
            assertEquals(in.readAllBytes().length, java.nio.file.Files.size(copy));
        }
    }

    @Test
    void cudaComesFirstForAuto() {
        assertEquals("cuda", Backends.providers().get(0).name());
        assertTrue(Backends.names().contains("cuda"));
    }
}
