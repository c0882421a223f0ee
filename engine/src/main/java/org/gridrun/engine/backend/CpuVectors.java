package org.gridrun.engine.backend;

import org.gridrun.engine.simd.Simd;

/**
 * Whether the CPU backend's row and elementwise loops run on the Vector API ({@link VectorNormRows},
 * {@link VectorElementwise}) or on their scalar loops, which give the same bits.
 */
final class CpuVectors {
    /** On where {@link Simd#enabled()}; switched off only by tests that compare both paths. */
    static volatile boolean enabled = Simd.enabled();

    private CpuVectors() {
    }
}
