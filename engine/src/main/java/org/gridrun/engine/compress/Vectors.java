package org.gridrun.engine.compress;

import org.gridrun.engine.simd.Simd;

/**
 * Whether the codecs take their Vector API kernels ({@link VectorRounding}, {@link VectorMoments},
 * {@link VectorPacking}) or the scalar reference, which gives the same bytes.
 */
final class Vectors {
    /** On where {@link Simd#enabled()}; switched off only by tests that compare both paths. */
    static volatile boolean enabled = Simd.enabled();
    /** Whether the vector registers hold 16 ints, as {@link VectorPacking} needs. */
    static final boolean WIDE = Simd.enabled() && VectorPacking.supported();

    private Vectors() {
    }

    /** Whether codes of {@code width} bits are packed and unpacked with vectors. */
    static boolean packs(int width) {
        return WIDE && enabled && (width == 2 || width == 4 || width == 8);
    }
}
