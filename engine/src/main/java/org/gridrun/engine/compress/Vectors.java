package org.gridrun.engine.compress;

import org.gridrun.engine.simd.Simd;

/**
 * Whether the codecs take their Vector API kernels ({@link VectorRounding}, {@link VectorMoments},
 * {@link VectorPacking}, {@link VectorSigns}) or the scalar reference, which gives the same bytes.
 */
final class Vectors {
    /** On where {@link Simd#enabled()}; switched off only by tests that compare both paths. */
    static volatile boolean enabled = Simd.enabled();
    /** Whether the vector registers hold 16 ints, as {@link VectorPacking} needs. */
    static final boolean WIDE = Simd.enabled() && VectorPacking.supported();
    /** Whether a group of 32 sign bits is whole vectors, as {@link VectorSigns} needs. */
    private static final boolean SIGNS = Simd.enabled() && VectorSigns.supported();

    private Vectors() {
    }

    /** Whether sign bits are made and spread with vectors ({@link SignBits}). */
    static boolean signs() {
        return SIGNS && enabled;
    }

    /** Whether codes of {@code width} bits are packed and unpacked with vectors. */
    static boolean packs(int width) {
        return WIDE && enabled && (width == 2 || width == 4 || width == 8);
    }
}
