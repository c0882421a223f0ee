package org.gridrun.engine.backend;

/**
 * The shape of a 2-D convolution or pooling window over one channels-last (NHWC) image.
 *
 * <p>An image of {@code height × width × channels} is stored as one row of a tensor, pixel by pixel, each pixel's
 * channels together; a batch is a tensor of one such row per image. The window of {@code kernelHeight ×
 * kernelWidth} moves by {@code stride} over the image padded with {@code padding} zeros on every side, giving an
 * output of {@link #outHeight()} × {@link #outWidth()} positions.
 *
 * @param height       the input image's height
 * @param width        the input image's width
 * @param channels     the input image's channels
 * @param kernelHeight the window's height
 * @param kernelWidth  the window's width
 * @param stride       the step between windows, in both directions
 * @param padding      zeros added on each side, in both directions
 */
public record ConvGeometry(int height, int width, int channels, int kernelHeight, int kernelWidth, int stride,
                           int padding) {
    public ConvGeometry {
        if (height < 1 || width < 1 || channels < 1 || kernelHeight < 1 || kernelWidth < 1 || stride < 1
                || padding < 0 || height + 2 * padding < kernelHeight || width + 2 * padding < kernelWidth) {
            throw new IllegalArgumentException("invalid window geometry: " + this);
        }
    }

    /** A square {@code kernel × kernel} window. */
    public static ConvGeometry square(int height, int width, int channels, int kernel, int stride, int padding) {
        return new ConvGeometry(height, width, channels, kernel, kernel, stride, padding);
    }

    /** The number of output rows. */
    public int outHeight() {
        return (height + 2 * padding - kernelHeight) / stride + 1;
    }

    /** The number of output columns. */
    public int outWidth() {
        return (width + 2 * padding - kernelWidth) / stride + 1;
    }

    /** The output positions per image. */
    public int outPositions() {
        return outHeight() * outWidth();
    }

    /** The values in one window: {@code kernelHeight × kernelWidth × channels}. */
    public int patchSize() {
        return kernelHeight * kernelWidth * channels;
    }

    /**
     * The geometry whose convolution of the output gradient, with {@code filters} channels, is the input gradient
     * (the kernels turned by 180°), where there is one: a stride-1 "same" convolution (square kernel, padding
     * (k − 1)/2) other than 1×1; else null.
     */
    public ConvGeometry transposed(int filters) {
        boolean same = stride == 1 && kernelHeight == kernelWidth && 2 * padding + 1 == kernelHeight;
        return same && kernelHeight > 1 ? new ConvGeometry(outHeight(), outWidth(), filters, kernelHeight,
                kernelWidth, 1, padding) : null;
    }

    /** The values in one input image: {@code height × width × channels}. */
    public int inputSize() {
        return height * width * channels;
    }
}
