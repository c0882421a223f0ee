package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The emulator's race check ({@code engine/src/test/cuda-emu/emu_race.cpp}) fails a launch whose threads race, and
 * names both places, that reads shared memory its block did not write, or that accesses memory at an address not a
 * multiple of the access's size; kernels whose barriers order every shared byte pass it. Runs in the engine's {@code racecheck}
 * test execution ({@code GRIDRUN_EMU_RACECHECK=1}), which also sets {@code gridrun.racecheck=required} so that this
 * class cannot pass there by skipping; elsewhere it skips. The kernels are in
 * {@code engine/src/test/cuda-emu/kernels/selftest.cu}.
 */
class CudaRaceCheckTest {
    private Gpu gpu;

    @BeforeEach
    void open() {
        if ("required".equals(System.getProperty("gridrun.racecheck")) && !EmulatedGpu.RACECHECK) {
            throw new AssertionError("gridrun.racecheck=required, but GRIDRUN_EMU_RACECHECK=1 is not in the "
                    + "environment");
        }
        assumeTrue(EmulatedGpu.RACECHECK, "the race check runs with GRIDRUN_EMU_RACECHECK=1");
        gpu = GpuTarget.EMULATOR.open();
    }

    @AfterEach
    void close() {
        if (gpu != null) {
            gpu.close();
        }
    }

    @Test
    void lanesAddingToOneSharedCounterRace() {
        float[] x = {3, 1, 3, 7, 0, 3, 5, 1};
        long counts = gpu.allocate(4 * 8);
        String message = race("gr_selftest_histogram_racy", 1, 64,
                KernelArgs.of().address(upload(x)).address(counts).i32(x.length));
        // threads 0, 2 and 5 add to bin 3; thread 0 goes first after the barrier in both orders (the last to arrive
        // going up, the first released going down), then thread 2 (going up) or 5 (going down) reads its addition
        assertTrue(message.matches("(?s).*thread \\((2|5),0,0\\) of block \\(0,0,0\\) reads shared memory.*"
                + "which thread \\(0,0,0\\) of block \\(0,0,0\\) wrote .*"), message);
        assertTrue(message.contains("in the same warp with no __syncwarp or __syncthreads between them"), message);
    }

    @Test
    void countingEachBinInOneThreadPasses() {
        float[] x = {3, 1, 3, 7, 0, 3, 5, 1};
        long counts = gpu.allocate(4 * 8);
        gpu.launch("gr_selftest_histogram", 1, 1, 1, 64, 1, 1,
                KernelArgs.of().address(upload(x)).address(counts).i32(x.length));
        assertArrayEquals(new float[] {1, 2, 0, 3, 0, 1, 0, 1}, download(counts, 8));
    }

    @Test
    void aReadOfAnotherWarpsWriteWithoutABarrierRaces() {
        long x = upload(new float[1024]);
        long sums = gpu.allocate(4 * 4);
        String message = race("gr_selftest_block_sum_racy", 4, 256, KernelArgs.of().address(x).address(sums)
                .i32(1024));
        assertTrue(message.contains("__syncthreads between them"), message);
    }

    @Test
    void aTreeSumWithItsBarriersPasses() {
        float[] x = new float[1000];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % 17 - 8;
        }
        long sums = gpu.allocate(4 * 4);
        gpu.launch("gr_selftest_block_sum", 4, 1, 1, 256, 1, 1, KernelArgs.of().address(upload(x)).address(sums)
                .i32(x.length));
        float[] expected = new float[4];
        for (int i = 0; i < x.length; i++) {
            expected[i / 256] += x[i];
        }
        assertArrayEquals(expected, download(sums, 4));
    }

    @Test
    void aShuffleDoesNotOrderAWarpsSharedMemoryButSyncwarpDoes() {
        float[] x = new float[128];
        for (int i = 0; i < x.length; i++) {
            x[i] = i;
        }
        long y = gpu.allocate(4L * x.length);
        gpu.launch("gr_selftest_warp_exchange", 2, 1, 1, 64, 1, 1, KernelArgs.of().address(upload(x)).address(y));
        float[] got = download(y, x.length);
        for (int i = 0; i < x.length; i++) {
            assertTrue(got[i] == (i ^ 1), "lane " + i + " got " + got[i]);
        }
        String message = race("gr_selftest_warp_exchange_racy", 2, 64, KernelArgs.of().address(upload(x)).address(y));
        assertTrue(message.contains("selftest.cu:"), "names the places: " + message);
        assertTrue(message.contains("in the same warp with no __syncwarp"), message);
    }

    @Test
    void blocksOfOneLaunchAreNeverOrdered() {
        long out = upload(new float[32]);
        String message = race("gr_selftest_blocks_race", 16, 32, KernelArgs.of().address(out));
        assertTrue(message.contains("of allocation #"), message);
        assertTrue(message.contains("in another block of the same launch"), message);
    }

    @Test
    void aReadOfSharedMemoryNoThreadOfTheBlockWroteFails() {
        long out = gpu.allocate(4 * 128);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> gpu.launch("gr_selftest_uninitialised", 2, 1, 1, 64, 1, 1, KernelArgs.of().address(out)));
        assertTrue(e.getMessage().matches("uninitialised shared memory in gr_selftest_uninitialised: thread \\("
                + "(32|63),0,0\\) of block \\((0|1),0,0\\) reads shared memory at "
                + "engine/src/test/cuda-emu/kernels/selftest.cu:\\d+ in gr_selftest_uninitialised that no thread of "
                + "its block has written"), e.getMessage());
    }

    @Test
    void anEightByteLoadFromAnAddressNotAMultipleOf8Fails() {
        long x = upload(new float[40]);
        long y = gpu.allocate(8 * 16);
        gpu.launch("gr_selftest_load_double", 1, 1, 1, 16, 1, 1, KernelArgs.of().address(x).address(y).i32(2));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> gpu.launch(
                "gr_selftest_load_double", 1, 1, 1, 16, 1, 1, KernelArgs.of().address(x).address(y).i32(1)));
        assertTrue(e.getMessage().matches("misaligned access in gr_selftest_load_double: thread \\((0|15),0,0\\) of "
                + "block \\(0,0,0\\) reads 8 bytes at byte (4|124) of allocation #\\d+ \\(160 bytes\\) at "
                + "engine/src/test/cuda-emu/kernels/selftest.cu:\\d+ in gr_selftest_load_double, an address that is "
                + "not a multiple of 8 \\(a GPU faults: CUDA_ERROR_MISALIGNED_ADDRESS\\)"), e.getMessage());
    }

    /**
     * A value written and then read back through {@code __ldg} by the same thread, and one read through
     * {@code __ldg} and then overwritten: no two threads meet, but the read-only cache is not coherent with the
     * launch's stores, so both fail, naming the load and the store. An input only read through it passes.
     */
    @Test
    void ldgOfMemoryTheLaunchWritesFailsInEitherOrder() {
        long x = upload(new float[] {1, 2, 3, 4, 5, 6, 7, 8});
        long y = gpu.allocate(4 * 8);
        String written = incoherent("gr_selftest_ldg_after_write", KernelArgs.of().address(x).address(y).i32(8));
        assertTrue(written.matches("__ldg of written memory in gr_selftest_ldg_after_write: thread \\((0|7),0,0\\) of "
                + "block \\(0,0,0\\) reads byte (0|28) of allocation #\\d+ \\(32 bytes\\) through __ldg at "
                + "engine/src/test/cuda-emu/kernels/selftest.cu:\\d+ in gr_selftest_ldg_after_write, and thread "
                + "\\(\\1,0,0\\) of block \\(0,0,0\\) writes it at engine/src/test/cuda-emu/kernels/selftest.cu:\\d+ "
                + "in gr_selftest_ldg_after_write in the same launch: .*"), written);
        String overwritten = incoherent("gr_selftest_ldg_then_write", KernelArgs.of().address(x).i32(8));
        assertTrue(overwritten.matches("__ldg of written memory in gr_selftest_ldg_then_write: thread \\((0|7),0,0\\) "
                + "of block \\(0,0,0\\) reads byte (0|28) of allocation #\\d+ \\(32 bytes\\) through __ldg at .*"
                + "selftest.cu:\\d+ in gr_selftest_ldg_then_write, and thread \\(\\1,0,0\\) of block \\(0,0,0\\) "
                + "writes it at .*"), overwritten);
        gpu.launch("gr_selftest_ldg_input", 2, 1, 1, 32, 1, 1, KernelArgs.of().address(x).address(y).i32(8));
        float[] read = download(x, 8);
        float[] tripled = download(y, 8);
        for (int i = 0; i < 8; i++) {
            assertEquals(3 * read[i], tripled[i], 0f, "value " + i);
        }
    }

    /** The message of the read-only-cache failure of this launch of {@code kernel} (one block of 8 threads). */
    private String incoherent(String kernel, KernelArgs args) {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> gpu.launch(kernel, 1, 1, 1, 8, 1, 1, args));
        return e.getMessage();
    }

    /** The message of the race that fails this launch of {@code kernel} (x blocks of x threads). */
    private String race(String kernel, int blocks, int threads, KernelArgs args) {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> gpu.launch(kernel, blocks, 1, 1, threads, 1, 1, args));
        assertTrue(e.getMessage().startsWith("data race in " + kernel + ": "), e.getMessage());
        return e.getMessage();
    }

    private long upload(float[] values) {
        return CudaEmulatorTest.upload(gpu, values);
    }

    private float[] download(long address, int n) {
        return CudaEmulatorTest.download(gpu, address, n);
    }
}
