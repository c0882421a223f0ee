package org.gridrun.engine.model.nn;

/**
 * The shape of one example between layers, channels-last: {@code height × width × channels} values in one row.
 *
 * <p>A flat feature vector is {@code 1 × 1 × features}.
 *
 * @param height   rows of pixels
 * @param width    columns of pixels
 * @param channels values per pixel
 */
public record Shape(int height, int width, int channels) {
    public Shape {
        if (height < 1 || width < 1 || channels < 1) {
            throw new IllegalArgumentException("a shape needs positive sizes, found " + height + "x" + width + "x"
                    + channels);
        }
    }

    /** A flat vector of {@code features} values. */
    public static Shape flat(int features) {
        return new Shape(1, 1, features);
    }

    /** The number of values: {@code height × width × channels}. */
    public int size() {
        return height * width * channels;
    }

    /** The number of pixels: {@code height × width}. */
    public int positions() {
        return height * width;
    }

    @Override
    public String toString() {
        return height == 1 && width == 1 ? Integer.toString(channels) : height + "x" + width + "x" + channels;
    }
}
