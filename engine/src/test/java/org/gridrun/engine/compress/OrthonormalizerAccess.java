package org.gridrun.engine.compress;

/** The host's orthonormalisation for the device's tests in other packages. */
public final class OrthonormalizerAccess {
    private OrthonormalizerAccess() {
    }

    /** {@code Orthonormalizer.apply}: the {@code r} columns of {@code p}, {@code rows} each, made orthonormal. */
    public static void apply(float[] p, int rows, int r) {
        new Orthonormalizer().apply(p, rows, r);
    }
}
