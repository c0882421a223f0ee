package org.gridrun.engine.backend.cuda;

/** The host emulator of gridrun's kernels. (Being written.) */
final class EmulatedGpu {
    private EmulatedGpu() {
    }

    /** A new emulated device, building the emulator library first when needed; fails with the reason it cannot. */
    static Gpu open() {
        throw new IllegalStateException("the CUDA emulator is being written");
    }
}
