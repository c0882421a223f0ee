package org.gridrun.engine.data;

/**
 * A decoded image as 8-bit RGB, row-major with each pixel's red, green and blue side by side.
 *
 * @param width  columns
 * @param height rows
 * @param rgb    {@code width · height · 3} bytes
 */
record DecodedImage(int width, int height, byte[] rgb) {
    DecodedImage {
        if (width < 1 || height < 1 || rgb.length != width * height * 3) {
            throw new IllegalArgumentException("an RGB image of " + width + "x" + height + " needs "
                    + width * height * 3 + " bytes, found " + rgb.length);
        }
    }
}
