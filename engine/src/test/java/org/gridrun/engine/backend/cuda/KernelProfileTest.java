package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The kernel-time table of GRIDRUN_CUDA_PROFILE: totals, shares and means per kernel, the largest total first. */
class KernelProfileTest {
    @Test
    void onlyTheVariableTurnsItOn() {
        assertNull(KernelProfile.fromEnvironment(null));
        assertNull(KernelProfile.fromEnvironment("0"));
        assertNotNull(KernelProfile.fromEnvironment("1"));
        assertNotNull(KernelProfile.fromEnvironment("true"));
    }

    @Test
    void kernelsAreListedByTotalTimeWithTheirMeanAndLongestCall() {
        KernelProfile p = KernelProfile.fromEnvironment("1");
        assertTrue(p.isEmpty());
        p.add("gr_level_norms", 0.030);
        p.add("gr_level_uniform_codes", 0.050);
        p.add("gr_level_norms", 0.040);
        p.add("gr_level_decode_mean", 0.080);
        String[] lines = p.table("H200").split("\n");
        assertTrue(lines[0].contains("H200"), lines[0]);
        assertTrue(lines[1].startsWith("kernel"), lines[1]);
        // 0.080 ms, then 0.070 ms in two calls (mean 35 us, longest 40 us), then 0.050 ms; 0.200 ms in all
        assertTrue(lines[2].startsWith("gr_level_decode_mean "), lines[2]);
        String[] norms = lines[3].trim().split("\\s+");
        assertEquals("gr_level_norms", norms[0]);
        assertEquals("2", norms[1]);
        assertEquals("0.070", norms[2]);
        assertEquals("35.0%", norms[3]);
        assertEquals("35.00", norms[4]);
        assertEquals("40.00", norms[5]);
        assertTrue(lines[4].startsWith("gr_level_uniform_codes "), lines[4]);
        assertTrue(lines[5].startsWith("all kernels") && lines[5].trim().endsWith("0.200"), lines[5]);
    }
}
