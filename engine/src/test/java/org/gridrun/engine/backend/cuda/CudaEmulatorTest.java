package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The host emulator runs right kernels exactly and makes wrong ones fail: races change results, deadlocks and
 * out-of-bounds writes are errors that say where, memory nothing wrote is NaN. The kernels are in
 * {@code engine/src/test/cuda-emu/kernels/selftest.cu}.
 */
class CudaEmulatorTest {
    /** Why the racy kernels' cases skip under the race check: it fails their launches (CudaRaceCheckTest). */
    private static final String RACE_CHECKED = "GRIDRUN_EMU_RACECHECK=1 fails a racy kernel's launch";
    private Gpu gpu;

    @BeforeEach
    void open() {
        gpu = GpuTarget.EMULATOR.open();
    }

    @AfterEach
    void close() {
        if (gpu != null) {  // null when the emulator is unavailable and the test skipped
            gpu.close();
        }
    }

    @Test
    void blockReductionWithBarriersIsExact() {
        float[] x = integers(1000);
        long sums = gpu.allocate(4 * 4);
        gpu.launch("gr_selftest_block_sum", 4, 1, 1, 256, 1, 1, KernelArgs.of().address(upload(x)).address(sums)
                .i32(x.length));
        assertArrayEquals(blockSums(x, 256, 4), download(sums, 4));
    }

    @Test
    void aMissingBarrierGivesAWrongSum() {
        assumeFalse(EmulatedGpu.RACECHECK, RACE_CHECKED);
        float[] x = integers(1000);
        long sums = gpu.allocate(4 * 4);
        gpu.launch("gr_selftest_block_sum_racy", 4, 1, 1, 256, 1, 1, KernelArgs.of().address(upload(x))
                .address(sums).i32(x.length));
        assertFalse(Arrays.equals(blockSums(x, 256, 4), download(sums, 4)));
    }

    @Test
    void warpShufflesMoveEveryLanesValue() {
        int n = 128;
        float[] x = integers(n);
        long down = gpu.allocate(4 * 4);
        long butterfly = gpu.allocate(4 * n);
        long broadcast = gpu.allocate(4 * n);
        long wide = gpu.allocate(8 * 4);
        long mirrored = gpu.allocate(8 * n);
        gpu.launch("gr_selftest_warp", 2, 1, 1, 64, 1, 1, KernelArgs.of().address(upload(x)).address(down)
                .address(butterfly).address(broadcast).address(wide).address(mirrored));
        float[] sums = blockSums(x, 32, 4);
        assertArrayEquals(sums, download(down, 4));
        ByteBuffer wides = bytes(wide, 8 * 4);
        ByteBuffer ids = bytes(mirrored, 8 * n);
        float[] everyLane = download(butterfly, n);
        float[] lane5 = download(broadcast, n);
        for (int t = 0; t < n; t++) {
            int warp = t / 32;
            assertEquals(sums[warp], everyLane[t]);
            assertEquals(x[32 * warp + 5], lane5[t]);
            long source = 32 * warp + 31 - t % 32;
            assertEquals(source << 32 | source, ids.getLong(8 * t), "lane " + t);
        }
        for (int w = 0; w < 4; w++) {
            assertEquals(sums[w], wides.getDouble(8 * w));
        }
    }

    @Test
    void aWarpSortsItsKeysAcrossItsLanes() {
        // a GPU loses one of two adds to one shared counter in one instruction, which the emulator's threads, one
        // after another, do not: gr_jsq_stats counts each run of equal keys once, so the sort itself is checked here
        int n = 128;
        float[] x = new float[n];
        Random rng = new Random(5);
        for (int i = 0; i < n; i++) {
            x[i] = i < 32 ? 31 - i : rng.nextInt(i < 64 ? 4 : 4096);
        }
        long sorted = gpu.allocate(4L * n);
        gpu.launch("gr_selftest_warp_sort", 2, 1, 1, 64, 1, 1, KernelArgs.of().address(upload(x)).address(sorted));
        float[] expected = x.clone();
        for (int w = 0; w < n / 32; w++) {
            Arrays.sort(expected, 32 * w, 32 * w + 32);
        }
        assertArrayEquals(expected, download(sorted, n));
    }

    @Test
    void barriersKeepThreadsInStep() {
        int threads = 96;
        int rounds = 37;
        float[] x = integers(2 * threads);
        long y = gpu.allocate(4L * x.length);
        gpu.launch("gr_selftest_rotate", 2, 1, 1, threads, 1, 1, KernelArgs.of().address(upload(x)).address(y)
                .i32(rounds));
        float[] got = download(y, x.length);
        for (int i = 0; i < x.length; i++) {
            int block = i / threads;
            assertEquals(x[block * threads + (i % threads + rounds) % threads], got[i], "thread " + i);
        }
    }

    @Test
    void threadsThatReturnedDoNotHoldUpABarrier() {
        long out = gpu.allocate(4 * 64);
        gpu.launch("gr_selftest_early_exit", 1, 1, 1, 64, 1, 1, KernelArgs.of().address(out).i32(40));
        float[] got = download(out, 64);
        for (int t = 0; t < 64; t++) {
            assertEquals(t < 40 ? (t + 1) % 40 : Float.NaN, got[t], "thread " + t);
        }
    }

    @Test
    void aShuffleFromALaneThatReturnedIsAnError() {
        long out = gpu.allocate(4 * 32);
        assertContains(failure(() -> gpu.launch("gr_selftest_shuffle_from_returned", 1, 1, 1, 32, 1, 1,
                KernelArgs.of().address(out))), "__shfl_down_sync in gr_selftest_shuffle_from_returned, block "
                + "(0,0,0) at engine/src/test/cuda-emu/kernels/selftest.cu:");
        assertContains(failure(() -> gpu.launch("gr_selftest_shuffle_from_returned", 1, 1, 1, 32, 1, 1,
                KernelArgs.of().address(out))), "thread (30,0,0) reads lane 31, which has returned");
    }

    @Test
    void aBarrierInADivergentBranchIsADeadlock() {
        long out = gpu.allocate(4 * 64);
        String message = failure(() -> gpu.launch("gr_selftest_divergent_barrier", 1, 1, 1, 64, 1, 1,
                KernelArgs.of().address(out)));
        // threads start from 0 up in one launch and from 63 down in the next: the first to meet the other barrier is
        // thread 16 (thread 0 waiting) or thread 15 (thread 16 waiting)
        boolean forward = message.contains("thread (16,0,0) reached __syncthreads at engine/src/test/cuda-emu/kernels/"
                + "selftest.cu:");
        assertContains(message, "deadlock in gr_selftest_divergent_barrier, block (0,0,0): thread ("
                + (forward ? "16" : "15") + ",0,0) reached __syncthreads at engine/src/test/cuda-emu/kernels/selftest.cu:");
        assertContains(message, "while thread (" + (forward ? "0" : "16") + ",0,0) waits at "
                + "engine/src/test/cuda-emu/kernels/selftest.cu:");
    }

    /**
     * A read of another thread's shared write with no barrier between gives different results in two launches in a
     * row, one running the block's threads from the lowest id up and the next from the highest down, so a missing
     * barrier fails a comparison with the CPU instead of passing because the lower threads always ran first.
     */
    @Test
    void aBallotGathersEveryLanesPredicate() {
        int n = 128;
        float[] x = new float[n];
        for (int t = 0; t < n; t++) {
            x[t] = t % 3 == 0 || t == 127 ? -1f - t : t;
        }
        long out = gpu.allocate(4 * 4);
        gpu.launch("gr_selftest_ballot", 2, 1, 1, 64, 1, 1, KernelArgs.of().address(upload(x)).address(out));
        ByteBuffer words = bytes(out, 4 * 4);
        for (int w = 0; w < 4; w++) {
            int expected = 0;
            for (int lane = 0; lane < 32; lane++) {
                expected |= x[32 * w + lane] < 0 ? 1 << lane : 0;
            }
            assertEquals(expected, words.getInt(4 * w), "warp " + w);
        }
    }

    @Test
    void aBlockReadingAnotherBlocksWriteShowsInOneOfTwoLaunches() {
        assumeTrue(System.getenv("GRIDRUN_EMU_ORDER") == null, "GRIDRUN_EMU_ORDER fixes one order for every launch");
        assumeFalse(EmulatedGpu.RACECHECK, RACE_CHECKED);
        int blocks = 16;
        float[] fresh = new float[2 * blocks];
        Arrays.fill(fresh, -1f);
        long first = upload(fresh);
        long second = upload(fresh);
        gpu.launch("gr_selftest_blocks_race", blocks, 1, 1, 32, 1, 1, KernelArgs.of().address(first));
        gpu.launch("gr_selftest_blocks_race", blocks, 1, 1, 32, 1, 1, KernelArgs.of().address(second));
        float[] a = download(first, 2 * blocks);
        float[] b = download(second, 2 * blocks);
        // blocks 1 … 15 read the block before's index when it ran before them, else the -1 it found
        boolean forwardFirst = a[blocks + 1] == 0f;
        for (int block = 1; block < blocks; block++) {
            assertEquals(forwardFirst ? block - 1 : -1, a[blocks + block], "block " + block + " of the first launch");
            assertEquals(forwardFirst ? -1 : block - 1, b[blocks + block], "block " + block + " of the second launch");
        }
    }

    @Test
    void aMissingBarrierShowsInOneOfTwoLaunches() {
        assumeTrue(System.getenv("GRIDRUN_EMU_ORDER") == null, "GRIDRUN_EMU_ORDER fixes one order for every launch");
        assumeFalse(EmulatedGpu.RACECHECK, RACE_CHECKED);
        long first = gpu.allocate(4 * 64);
        long second = gpu.allocate(4 * 64);
        gpu.launch("gr_selftest_missing_barrier", 1, 1, 1, 64, 1, 1, KernelArgs.of().address(first));
        gpu.launch("gr_selftest_missing_barrier", 1, 1, 1, 64, 1, 1, KernelArgs.of().address(second));
        float[] a = download(first, 64);
        float[] b = download(second, 64);
        // the thread that arrives last at the barrier goes on first (thread 63 forward, thread 0 in reverse), so
        // threads 2 to 62 tell the order: their neighbour's id going up, the value before going down
        boolean forwardFirst = a[2] == 1f;
        for (int t = 2; t < 63; t++) {
            assertEquals(forwardFirst ? t - 1 : -1, a[t], "thread " + t + " of the first launch");
            assertEquals(forwardFirst ? -1 : t - 1, b[t], "thread " + t + " of the second launch");
        }
    }

    @Test
    void threadsWaitingForTheirWarpAndForTheBlockAreADeadlock() {
        long out = gpu.allocate(4 * 64);
        String message = failure(() -> gpu.launch("gr_selftest_stuck", 1, 1, 1, 64, 1, 1,
                KernelArgs.of().address(out)));
        assertContains(message, "deadlock in gr_selftest_stuck, block (0,0,0): no thread can go on;");
        assertContains(message, "thread (0,0,0) and 15 more wait at __syncwarp");
        assertContains(message, "thread (16,0,0) and 47 more wait at __syncthreads");
    }

    @Test
    void anOutOfBoundsWriteNamesTheKernelAndTheAllocation() {
        long x = gpu.allocate(4 * 1000);
        String past = failure(() -> gpu.launch("gr_selftest_write_at", 1, 1, 1, 32, 1, 1,
                KernelArgs.of().address(x).i64(1000).f32(1f)));
        assertContains(past, "gr_selftest_write_at wrote outside allocation #1 (4000 bytes at 0x"
                + Long.toHexString(x) + "): bytes 4000 to 4003 from its start");
        String before = failure(() -> gpu.launch("gr_selftest_write_at", 1, 1, 1, 32, 1, 1,
                KernelArgs.of().address(x).i64(-3).f32(1f)));
        assertContains(before, "bytes -12 to -9 from its start");
        // The guard zones were restored: the next launch is not blamed, and a write inside is fine.
        gpu.launch("gr_selftest_write_at", 1, 1, 1, 32, 1, 1, KernelArgs.of().address(x).i64(999).f32(2f));
        assertEquals(2f, download(x, 1000)[999]);
        gpu.free(x);
    }

    @Test
    void argumentsMustMatchTheParameters() {
        long x = gpu.allocate(4 * 256);
        long sums = gpu.allocate(4);
        assertContains(failure(() -> gpu.launch("gr_selftest_block_sum", 1, 1, 1, 256, 1, 1,
                KernelArgs.of().address(x).address(sums))), "gr_selftest_block_sum takes 3 arguments, got 2");
        assertContains(failure(() -> gpu.launch("gr_selftest_block_sum", 1, 1, 1, 256, 1, 1,
                KernelArgs.of().address(x).address(sums).i64(256))),
                "gr_selftest_block_sum argument 2: got LONG (8 bytes), but parameter 2 is a 32-bit int (INT, 4 bytes)");
        assertContains(failure(() -> gpu.launch("gr_selftest_block_sum", 1, 1, 1, 256, 1, 1,
                KernelArgs.of().address(x).f32(1f).i32(256))), "argument 1: got FLOAT (4 bytes), but parameter 1 is a "
                + "pointer (ADDRESS, 8 bytes)");
        gpu.free(sums);
        assertContains(failure(() -> gpu.launch("gr_selftest_block_sum", 1, 1, 1, 256, 1, 1,
                KernelArgs.of().address(x).address(sums).i32(256))),
                "gr_selftest_block_sum argument 1: 0 bytes at 0x" + Long.toHexString(sums)
                        + " are not inside one live allocation");
    }

    @Test
    void theLaunchConfigurationIsCheckedAsOnAGpu() {
        long out = gpu.allocate(4);
        KernelArgs args = KernelArgs.of().address(out).i64(0).f32(0f);
        assertContains(failure(() -> gpu.launch("gr_selftest_write_at", 1, 1, 1, 1025, 1, 1, args)),
                "gr_selftest_write_at: grid (1,1,1) of blocks (1025,1,1): a block has at most 1024 threads");
        assertContains(failure(() -> gpu.launch("gr_selftest_write_at", 1, 1, 1, 1, 1, 65, args)), "64 in z");
        assertContains(failure(() -> gpu.launch("gr_selftest_write_at", 1, 65536, 1, 1, 1, 1, args)),
                "65535 in y and z");
        assertContains(failure(() -> gpu.launch("gr_selftest_write_at", 1, 1, 0, 1, 1, 1, args)),
                "no dimension may be 0");
        assertContains(failure(() -> gpu.launch("gr_no_such_kernel", 1, 1, 1, 1, 1, 1, args)),
                "no kernel gr_no_such_kernel");
    }

    @Test
    void aVectorLoadFromAnAddressNotAMultipleOfItsSizeFailsAsOnAGpu() {
        float[] x = integers(68);
        long from = upload(x);
        long y = gpu.allocate(4 * 64);
        gpu.launch("gr_selftest_load4", 1, 1, 1, 16, 1, 1, KernelArgs.of().address(from).address(y).i32(4));
        assertArrayEquals(Arrays.copyOfRange(x, 4, 68), download(y, 64));
        // 2 floats in: thread 0 reads at byte 8 (thread 15 at byte 248 in a reverse launch)
        String message = failure(() -> gpu.launch("gr_selftest_load4", 1, 1, 1, 16, 1, 1,
                KernelArgs.of().address(from).address(y).i32(2)));
        assertTrue(message.matches("misaligned access in gr_selftest_load4: thread \\((0|15),0,0\\) of block "
                + "\\(0,0,0\\) reads 16 bytes at byte (8|248) of allocation #\\d+ \\(272 bytes\\) at "
                + "engine/src/test/cuda-emu/kernels/selftest.cu:\\d+, an address that is not a multiple of 16 \\(a "
                + "GPU faults: CUDA_ERROR_MISALIGNED_ADDRESS\\)"), message);
    }

    @Test
    void aBlockLargerThanTheKernelsLaunchBoundsIsRefused() {
        float[] x = integers(200);
        long y = gpu.allocate(4L * x.length);
        KernelArgs args = KernelArgs.of().address(upload(x)).address(y).i32(x.length);
        assertContains(failure(() -> gpu.launch("gr_selftest_bounded_copy", 1, 1, 1, 32, 1, 3, args)),
                "gr_selftest_bounded_copy: grid (1,1,1) of blocks (32,1,3): its __launch_bounds__ allow at most 64 "
                        + "threads a block");
        gpu.launch("gr_selftest_bounded_copy", 2, 1, 1, 64, 1, 1, args);
        assertArrayEquals(x, download(y, x.length));
    }

    @Test
    void newMemoryIsNaNUntilWritten() {
        int n = 1000;
        long x = gpu.allocate(4 * n);
        long y = gpu.allocate(4 * n);
        byte[] raw = new byte[4 * n];
        gpu.downloadBytes(x, raw, raw.length);
        for (byte b : raw) {
            assertEquals((byte) 0xFF, b);
        }
        gpu.upload(new float[] {1f, 2f, 3f}, 0, x, 3);
        gpu.launch("gr_selftest_copy", 2, 1, 1, 128, 1, 1, KernelArgs.of().address(x).address(y).i32(n));
        float[] copied = download(y, n);
        assertArrayEquals(new float[] {1f, 2f, 3f}, Arrays.copyOf(copied, 3));
        for (int i = 3; i < n; i++) {
            assertTrue(Float.isNaN(copied[i]), "value " + i);
        }
    }

    @Test
    void aTwoDimensionalGridOfThreeDimensionalBlocksGetsItsIndices() {
        int[] grid = {3, 2, 1};
        int[] block = {4, 2, 3};
        int threads = 3 * 2 * 4 * 2 * 3;
        long out = gpu.allocate(4L * 12 * threads);
        gpu.launch("gr_selftest_indices", grid[0], grid[1], grid[2], block[0], block[1], block[2],
                KernelArgs.of().address(out));
        ByteBuffer got = bytes(out, 4 * 12 * threads);
        int i = 0;
        for (int by = 0; by < grid[1]; by++) {
            for (int bx = 0; bx < grid[0]; bx++) {
                for (int tz = 0; tz < block[2]; tz++) {
                    for (int ty = 0; ty < block[1]; ty++) {
                        for (int tx = 0; tx < block[0]; tx++) {
                            int[] expected = {tx, ty, tz, bx, by, 0, block[0], block[1], block[2], grid[0], grid[1],
                                grid[2]};
                            int[] actual = new int[12];
                            got.position(4 * 12 * i++).asIntBuffer().get(actual);
                            assertArrayEquals(expected, actual, "thread " + i);
                        }
                    }
                }
            }
        }
    }

    @Test
    void mathFollowsCuda() {
        long bits = gpu.allocate(4 * 4);
        long out = gpu.allocate(4 * 4);
        float x = 3f;
        gpu.launch("gr_selftest_math", 1, 1, 1, 1, 1, 1, KernelArgs.of().f32(x).address(bits).address(out));
        ByteBuffer b = bytes(bits, 16);
        assertArrayEquals(new int[] {1, 0xffffffff, 2, Float.floatToRawIntBits(x)},
                new int[] {b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12)});
        assertArrayEquals(new float[] {1f / 3f, x, Math.fma(x, x, -1f), x}, download(out, 4), 1e-6f);
    }

    /**
     * As on a GPU, a launched graph runs after the launch returned: its uploads copy their host buffers as they are by
     * then, its kernels keep the launch's arguments. So a host that stages the next step too early shows it here.
     */
    @Test
    void aGraphRunsAfterItsLaunchReturnedWithItsLaunchsArguments() {
        int n = 4;
        long x = gpu.allocate(4 * n);
        long y = gpu.allocate(4 * n);
        long z = gpu.allocate(4 * n);
        try (DeviceGraph graph = gpu.newGraph()) {
            graph.upload(x, 4 * n, new int[0]);
            graph.kernel("gr_selftest_copy", new int[] {1, 1, 1, 32, 1, 1},
                    KernelArgs.of().address(x).address(y).i32(n), new int[] {0});
            graph.instantiate();
            graph.stage(0, new float[] {1, 2, 3, 4}, 0, null, n);
            graph.launch();
            graph.stage(0, new float[] {5, 6, 7, 8}, 0, null, n);
            graph.setArgs(1, "gr_selftest_copy", new int[] {1, 1, 1, 32, 1, 1},
                    KernelArgs.of().address(x).address(z).i32(n));
            assertArrayEquals(new float[] {5, 6, 7, 8}, download(y, n));
            assertTrue(Float.isNaN(download(z, n)[0]), "the arguments set after the launch are for later launches");

            graph.uploadNow(0);
            graph.stage(0, new float[] {9, 10, 11, 12}, 0, null, n);
            assertArrayEquals(new float[] {9, 10, 11, 12}, download(x, n));
        }
    }

    @Test
    void misuseOfTheDeviceFailsInJava() {
        assertThrows(GpuOutOfMemoryException.class, () -> gpu.allocate(Long.MAX_VALUE / 2));
        long x = gpu.allocate(16);
        assertContains(failure(() -> gpu.upload(new float[8], 0, x, 8)), "upload: 32 bytes at 0x");
        assertContains(failure(() -> gpu.copy(x, x + 4, 8)), "copy between overlapping ranges");
        gpu.free(x);
        assertContains(failure(() -> gpu.free(x)), "which is no live allocation");
        gpu.close();
        assertContains(failure(() -> gpu.allocate(4)), "closed");
    }

    private static float[] integers(int n) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i % 17 - 8;
        }
        return x;
    }

    /** The sums of consecutive groups of {@code size} values, the last one short. */
    private static float[] blockSums(float[] x, int size, int groups) {
        float[] sums = new float[groups];
        for (int i = 0; i < x.length; i++) {
            sums[i / size] += x[i];
        }
        return sums;
    }

    private long upload(float[] values) {
        return upload(gpu, values);
    }

    private float[] download(long address, int n) {
        return download(gpu, address, n);
    }

    /** A new allocation of {@code gpu} holding {@code values}. */
    static long upload(Gpu gpu, float[] values) {
        long address = gpu.allocate(4L * values.length);
        gpu.upload(values, 0, address, values.length);
        return address;
    }

    /** The {@code n} floats at {@code address}. */
    static float[] download(Gpu gpu, long address, int n) {
        float[] values = new float[n];
        gpu.download(address, values, 0, n);
        return values;
    }

    private ByteBuffer bytes(long address, int n) {
        byte[] raw = new byte[n];
        gpu.downloadBytes(address, raw, n);
        return ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The message of the IllegalStateException `call` throws, within a few seconds (a hang fails the test). */
    private static String failure(Executable call) {
        return assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(IllegalStateException.class, call).getMessage());
    }

    private static void assertContains(String text, String part) {
        assertTrue(text.contains(part), () -> "expected \"" + part + "\" in \"" + text + "\"");
    }
}
