package org.gridrun.engine.backend.cuda;

/** A real GPU through JCuda's driver API. (Being written.) */
final class JCudaGpu {
    private JCudaGpu() {
    }

    /** Opens device {@code ordinal}. */
    static Gpu open(int ordinal) {
        throw new UnsupportedOperationException("JCudaGpu is being written");
    }
}
