package org.gridrun.engine.data;

/**
 * A decoded image: {@code height} rows of {@code width} pixels, each three bytes red, green, blue, row after row.
 *
 * <p>{@code pixels} may be longer than {@code width × height × 3} (a decoder's reused buffer) and then belongs to the
 * thread that decoded it: it is valid until that thread decodes its next image.
 *
 * @param width  pixels per row
 * @param height rows
 * @param pixels the interleaved RGB bytes, starting at index 0
 */
record RgbImage(int width, int height, byte[] pixels) {
    RgbImage {
        if (width < 1 || height < 1 || pixels.length < 3L * width * height) {
            throw new IllegalArgumentException("an image of " + width + "×" + height + " needs "
                    + 3L * width * height + " bytes, found " + pixels.length);
        }
    }

    /** The value of channel {@code channel} (0 red, 1 green, 2 blue) of pixel ({@code x}, {@code y}), 0 to 255. */
    int value(int x, int y, int channel) {
        return pixels[(y * width + x) * 3 + channel] & 0xFF;
    }
}
