package org.gridrun.engine.backend.cuda;

import org.gridrun.engine.backend.Backend;
import org.junit.jupiter.api.Assumptions;

/**
 * Where the CUDA backend's tests run: on the machine's GPU, and on the host emulator of the same kernel sources.
 *
 * <p>A target that cannot run here skips its test with the reason; with {@code GRIDRUN_REQUIRE_CUDA=1} in the
 * environment a missing GPU fails instead, so a GPU machine cannot pass by skipping. With
 * {@code GRIDRUN_SKIP_EMULATOR=1} the {@link #EMULATOR} target skips (the GPU check sets it: its device time is short,
 * and the emulator's cases already ran wherever the tests ran without a GPU).
 */
enum GpuTarget {
    /** The machine's first GPU, through JCuda. */
    DEVICE,
    /** The kernels compiled for the host and run thread by thread as fibers. */
    EMULATOR;

    /** Whether a skipped {@link #DEVICE} is a failure. */
    static boolean cudaRequired() {
        return "1".equals(System.getenv("GRIDRUN_REQUIRE_CUDA"));
    }

    /** A new gpu of this target, or the test is skipped (or failed, see {@link #cudaRequired()}) with the reason. */
    Gpu open() {
        if (this == EMULATOR && "1".equals(System.getenv("GRIDRUN_SKIP_EMULATOR"))) {
            Assumptions.abort("EMULATOR skipped (GRIDRUN_SKIP_EMULATOR=1)");
        }
        try {
            return this == DEVICE ? JCudaGpu.open(0) : EmulatedGpu.open();
        } catch (RuntimeException | LinkageError e) {
            String reason = this + " unavailable: " + e.getMessage();
            if (this == DEVICE && cudaRequired()) {
                throw new AssertionError(reason + " (GRIDRUN_REQUIRE_CUDA=1)", e);
            }
            Assumptions.abort(reason);
            throw new AssertionError("unreachable");
        }
    }

    /** A new CUDA backend on {@link #open()}; the caller closes it. */
    Backend backend() {
        return new CudaBackend(open());
    }
}
