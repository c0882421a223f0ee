package org.gridrun.engine.data;

/**
 * The shape of each image in a data set, stored channels-last: pixel (y, x) holds its {@code channels} values side
 * by side, rows top to bottom, columns left to right.
 *
 * <p>Value {@code j} of an image is channel {@code j % channels} of pixel {@code (j / channels) / width,
 * (j / channels) % width}, the layout of an NHWC tensor's sample.
 *
 * @param height   rows per image
 * @param width    columns per row
 * @param channels values per pixel: 1 for grey, 3 for red, green, blue
 */
public record ImageShape(int height, int width, int channels) {
    public ImageShape {
        if (height < 1 || width < 1 || channels < 1) {
            throw new IllegalArgumentException("image height, width and channels must be positive, found " + height
                    + "×" + width + "×" + channels);
        }
    }

    /** The values per image: {@code height × width × channels}. */
    public int features() {
        return height * width * channels;
    }

    @Override
    public String toString() {
        return height + "×" + width + "×" + channels;
    }
}
