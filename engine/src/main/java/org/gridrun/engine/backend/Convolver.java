package org.gridrun.engine.backend;

/**
 * The CPU backend's convolutions of channels-last images: one implementation per path ({@link CpuConvolution}'s
 * im2col and {@code sgemm}, {@link OneDnnConvolution}'s oneDNN), chosen once per process by {@link ConvPaths}.
 *
 * <p>Images are rows of {@code g.inputSize()} values (NHWC), weights {@code filters × g.patchSize()} (filter by
 * filter, kernel row by kernel column, the input channels together), outputs and their
 * gradients {@code (images·positions) × filters}.
 * Results depend only on the shapes and the thread count, never on timing.
 */
interface Convolver extends AutoCloseable {
    /** {@code y = x ⊛ w} for {@code images} images. */
    void forward(float[] x, int xo, ConvGeometry g, int images, float[] w, int wo, int filters, float[] y, int yo);

    /** {@code dw = ∂(x ⊛ w)/∂w · dy}, overwriting dw. */
    void weightGradient(float[] x, int xo, ConvGeometry g, int images, float[] dy, int dyo, int filters, float[] dw,
                        int dwo);

    /** {@code dx = ∂(x ⊛ w)/∂x · dy}, overwriting dx (images × {@code g.inputSize()}). */
    void dataGradient(float[] dy, int dyo, ConvGeometry g, int images, float[] w, int wo, int filters, float[] dx,
                      int dxo);

    /**
     * {@link #weightGradient} and, where {@code dx} is not null, {@link #dataGradient}, the same results; a path
     * may share what the two read (oneDNN copies {@code dy} in once).
     */
    default void backward(float[] x, int xo, ConvGeometry g, int images, float[] dy, int dyo, float[] w, int wo,
                          int filters, float[] dw, int dwo, float[] dx, int dxo) {
        weightGradient(x, xo, g, images, dy, dyo, filters, dw, dwo);
        if (dx != null) {
            dataGradient(dy, dyo, g, images, w, wo, filters, dx, dxo);
        }
    }

    /** Releases what the path holds outside the Java heap (nothing for im2col); it may be used again after. */
    @Override
    default void close() {
    }
}
