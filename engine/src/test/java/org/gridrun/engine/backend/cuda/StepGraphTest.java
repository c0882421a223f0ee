package org.gridrun.engine.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntPredicate;
import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.CpuBackend;
import org.gridrun.engine.backend.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Steps bracketed by beginStep and endStep compute, replayed as one graph, what the CPU computes op by op: uploads
 * staged anew each step, kernel arguments (here axpy's alpha) changed in the graph, a step that departs from its
 * recording run as usual and the next one recorded again; graphs are given up after steps that never repeat.
 */
class StepGraphTest {
    private static final int N = 1001;

    /** One step's work: y ← relu?(y + alpha·x) with x uploaded from {@code host}; fills x after the step. */
    private static void step(Backend b, float[] host, Tensor x, Tensor y, float alpha, boolean relu) {
        b.beginStep();
        b.upload(host, 0, x);
        b.axpy(alpha, x, y);
        if (relu) {
            b.relu(y, y);
        }
        b.scale(0.5f, y);
        b.endStep();
    }

    /**
     * {@code steps} steps on {@code cuda} and on the CPU, with fresh data and a new alpha each, y (1 at first)
     * compared after each; a ReLU in the steps {@code reluAt} names. Returns cuda's x and y.
     */
    private static Tensor[] stepsAgreeWithTheCpu(CudaBackend cuda, int steps, IntPredicate reluAt) {
        try (Backend cpu = new CpuBackend()) {
            Tensor[] xs = {cuda.allocate(1, N), cpu.allocate(1, N)};
            Tensor[] ys = {cuda.allocate(1, N), cpu.allocate(1, N)};
            Backend[] backends = {cuda, cpu};
            float[] host = new float[N];
            float[][] out = new float[2][N];
            for (int i = 0; i < 2; i++) {
                backends[i].fill(ys[i], 1f);
            }
            for (int s = 0; s < steps; s++) {
                for (int i = 0; i < N; i++) {
                    host[i] = (float) Math.sin(0.37 * i + s) * (s + 1);
                }
                for (int b = 0; b < 2; b++) {
                    step(backends[b], host, xs[b], ys[b], 0.25f * (s + 1), reluAt.test(s));
                    backends[b].download(ys[b], out[b], 0);
                }
                assertArrayEquals(out[1], out[0], "step " + s);
            }
            return new Tensor[] {xs[0], ys[0]};
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void replayedStepsComputeWhatTheirOperationsComputeAndStepsThatChangeRunAsUsual(GpuTarget target) {
        CudaBackend cuda = (CudaBackend) target.backend();
        try (cuda) {
            // step 5 has a ReLU its recording lacks; step 6 records the usual step again
            Tensor[] xy = stepsAgreeWithTheCpu(cuda, 10, s -> s == 5);
            // step 0 recorded, 1-4 replayed, 5 departed, 6 recorded, 7-9 replayed
            assertEquals(7, cuda.graphReplays());
            assertNull(cuda.graphsOffBecause());
            float[] host = new float[N];
            for (int s = 0; s < 2 * StepGraph.MAX_MISSES; s++) {
                // every other step departs, but steps have replayed before: graphs stay on
                step(cuda, host, xy[0], xy[1], 1f, s % 2 == 1);
            }
            assertNull(cuda.graphsOffBecause());
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void stepsThatNeverRepeatTurnGraphsOff(GpuTarget target) {
        CudaBackend cuda = (CudaBackend) target.backend();
        try (cuda) {
            Tensor x = cuda.allocate(1, N);
            Tensor y = cuda.allocate(1, N);
            float[] host = new float[N];
            for (int s = 0; s < 2 * StepGraph.MAX_MISSES; s++) {
                // every other step departs: the graph recorded at one is dropped at the next
                step(cuda, host, x, y, 1f, s % 2 == 1);
            }
            assertEquals(0, cuda.graphReplays());
            assertNotNull(cuda.graphsOffBecause());
            assertTrue(cuda.graphsOffBecause().contains("relu"), cuda.graphsOffBecause());
        }
    }

    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void aDownloadInsideAStepRunsItAsUsual(GpuTarget target) {
        CudaBackend cuda = (CudaBackend) target.backend();
        try (cuda) {
            Tensor x = cuda.allocate(1, N);
            float[] host = new float[N];
            float[] seen = new float[N];
            for (int s = 0; s < 3; s++) {
                java.util.Arrays.fill(host, s + 1);
                cuda.beginStep();
                cuda.upload(host, 0, x);
                cuda.scale(2f, x);
                cuda.download(x, seen, 0);
                cuda.endStep();
                assertEquals(2f * (s + 1), seen[N - 1], "step " + s);
            }
            assertEquals(0, cuda.graphReplays());
        }
    }

    /**
     * Two lanes, each adding its own x to its own y, then y0 halved outside the lanes: the graph lets the lanes run
     * side by side. At step 3 lane 1 adds to y0 instead, memory its recorded kernel did not touch: that step runs
     * kernel by kernel (replayed, lane 1 could add to y0 before lane 0 does, which rounds otherwise) and the next
     * one is recorded again.
     */
    @ParameterizedTest
    @EnumSource(GpuTarget.class)
    void aLaneKernelOnOtherMemoryThanRecordedRunsItsStepAsUsual(GpuTarget target) {
        CudaBackend cuda = (CudaBackend) target.backend();
        try (cuda; Backend cpu = new CpuBackend()) {
            Backend[] backends = {cuda, cpu};
            Tensor[][] xs = new Tensor[2][2];
            Tensor[][] ys = new Tensor[2][2];
            float[][] host = new float[2][N];
            for (int b = 0; b < 2; b++) {
                for (int l = 0; l < 2; l++) {
                    xs[b][l] = backends[b].allocate(1, N);
                    ys[b][l] = backends[b].allocate(1, N);
                    backends[b].fill(ys[b][l], 1f);
                }
            }
            float[][] out = new float[2][N];
            for (int s = 0; s < 6; s++) {
                for (int l = 0; l < 2; l++) {
                    for (int i = 0; i < N; i++) {
                        host[l][i] = (float) Math.sin(0.37 * i + 1.3 * l + s) * (l + 1) * 1e3f;
                    }
                }
                for (int b = 0; b < 2; b++) {
                    Backend be = backends[b];
                    be.beginStep();
                    for (int l = 0; l < 2; l++) {
                        be.lane(l);
                        be.upload(host[l], 0, xs[b][l]);
                        be.axpy(0.1f * (l + 1), xs[b][l], ys[b][l == 1 && s == 3 ? 0 : l]);
                    }
                    be.lane(-1);
                    be.scale(0.5f, ys[b][0]);
                    be.endStep();
                    be.download(ys[b][0], out[b], 0);
                }
                assertArrayEquals(out[1], out[0], "step " + s);
                if (s == 2) {
                    int[] shape = cuda.graphShape();
                    assertEquals(5, shape[1], "an upload and an axpy a lane, a scale");
                    assertEquals(3, shape[0], "upload, axpy, scale: the lanes side by side");
                }
            }
            // step 0 recorded, 1 and 2 replayed, 3 departed, 4 recorded, 5 replayed
            assertEquals(3, cuda.graphReplays());
            assertNull(cuda.graphsOffBecause());
        }
    }

    @Test
    void aGraphTheDeviceRefusesToLaunchTurnsGraphsOffAndTheStepRunsAsUsual() {
        Gpu gpu = GpuTarget.EMULATOR.open();
        ((EmulatedGpu) gpu).refuseGraphLaunches = true;
        try (CudaBackend cuda = new CudaBackend(gpu)) {
            stepsAgreeWithTheCpu(cuda, 4, s -> false);
            assertEquals(0, cuda.graphReplays());
            assertNotNull(cuda.graphsOffBecause());
            assertTrue(cuda.graphsOffBecause().contains("NOT_SUPPORTED"), cuda.graphsOffBecause());
        }
    }
}
