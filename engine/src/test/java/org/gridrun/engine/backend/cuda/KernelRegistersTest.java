package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The emulator refuses a block whose registers a GPU's multiprocessor could not give it. */
class KernelRegistersTest {
    @Test
    void aBlocksRegistersAreAllocatedAWarpAtATimeInUnitsOf256() {
        assertEquals(4 * 4096, KernelRegisters.blockRegisters(127, 128));  // 128 a thread, 4 warps
        assertEquals(1280, KernelRegisters.blockRegisters(33, 32));        // 40 a thread: 1,280, a multiple of 256
        assertEquals(2 * 1280, KernelRegisters.blockRegisters(40, 33));    // a part warp takes a whole one
        assertEquals(65_536, KernelRegisters.blockRegisters(64, 1024));    // exactly a multiprocessor's
        assertEquals(32 * 2304, KernelRegisters.blockRegisters(65, 1024)); // 72 a thread
    }

    @Test
    void eachEntryTakesTheRegistersPtxasReportsAfterIt() {
        String log = """
                ptxas info    : 0 bytes gmem
                ptxas info    : Compiling entry function 'gr_a' for 'sm_90'
                ptxas info    : Function properties for gr_a
                    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
                ptxas info    : Used 72 registers, used 1 barriers, 1092 bytes smem
                ptxas info    : Compiling entry function 'gr_b' for 'sm_90'
                ptxas info    : Used 16 registers, used 0 barriers
                """;
        assertEquals(Map.of("gr_a", 72, "gr_b", 16), KernelRegisters.parse(log));
    }

    @Test
    void theEmulatorRefusesABlockTheGpuWould() {
        assumeTrue(PtxTest.onPath("ptxas"), "ptxas is not on the PATH: no register counts here");
        Gpu gpu = GpuTarget.EMULATOR.open();
        try {
            // gr_jsq_code has no __launch_bounds__ and takes over 64 registers a thread (72 on sm_90: 896 threads)
            int registers = KernelRegisters.registers("gr_jsq_code").orElseThrow();
            assertTrue(registers > 64, "gr_jsq_code takes " + registers + " registers now, which 1024 threads get: "
                    + "take a kernel without __launch_bounds__ that needs more");
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> gpu.launch("gr_jsq_code", 1, 1, 1, 1024, 1, 1, KernelArgs.of()));
            assertTrue(e.getMessage().matches("gr_jsq_code: a block of 1024 threads needs \\d+ registers \\(\\d+ a "
                    + "thread on sm_90, by ptxas\\), more than the 65536 a multiprocessor gives a block: a GPU "
                    + "refuses the launch \\(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES\\)"), e.getMessage());
            // the same block size passes for a kernel of few registers, up to its arguments' check
            IllegalStateException arguments = assertThrows(IllegalStateException.class,
                    () -> gpu.launch("gr_selftest_copy", 1, 1, 1, 1024, 1, 1, KernelArgs.of()));
            assertTrue(arguments.getMessage().contains("takes 3 arguments, got 0"), arguments.getMessage());
        } finally {
            gpu.close();
        }
    }
}
