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
    void cudaComesFirstForAuto() {
        assertEquals("cuda", Backends.providers().get(0).name());
        assertTrue(Backends.names().contains("cuda"));
    }
}
