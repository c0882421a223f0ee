package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The resampler gives Pillow's bytes. Golden values: Pillow 9.4's {@code Image.resize(size, BILINEAR)} of the
 * 13×7 pattern below, computed once with Python; they seal the arithmetic (taps, fixed point, rounding).
 */
class ResamplerTest {
    /** Pillow: {@code im.resize((5, 3), Image.BILINEAR)}, RGB row after row. */
    private static final int[] DOWN = {93, 152, 107, 135, 141, 119, 120, 114, 124, 116, 118, 124, 133, 135, 123,
        146, 107, 149, 129, 142, 127, 118, 126, 129, 138, 125, 128, 144, 120, 142, 114, 126, 137, 146, 111, 119,
        137, 139, 120, 138, 125, 149, 138, 131, 121};
    /** Pillow: {@code im.crop((3, 2, 9, 6)).resize((4, 6), Image.BILINEAR)}: narrower, taller. */
    private static final int[] CROPPED = {34, 135, 140, 106, 178, 52, 179, 53, 125, 91, 96, 197, 76, 177, 102, 138,
        153, 98, 117, 90, 134, 99, 152, 125, 131, 189, 77, 162, 129, 155, 66, 130, 136, 126, 184, 72, 185, 73, 131,
        128, 135, 197, 116, 141, 110, 201, 89, 147, 193, 86, 139, 124, 168, 141, 137, 124, 140, 148, 121, 142, 186,
        127, 132, 127, 200, 73, 146, 104, 177, 76, 177, 118};

    private static final float[] IDENTITY = new float[3 * 256];

    static {
        for (int i = 0; i < IDENTITY.length; i++) {
            IDENTITY[i] = i & 0xFF;
        }
    }

    private static RgbImage pattern() {
        int width = 13;
        int height = 7;
        byte[] pixels = new byte[3 * width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                for (int c = 0; c < 3; c++) {
                    pixels[3 * (y * width + x) + c] = (byte) ((x * 37 + y * 59 + c * 101 + x * y * 7) % 256);
                }
            }
        }
        return new RgbImage(width, height, pixels);
    }

    private static int[] resize(CropBox box, int width, int height) {
        float[] out = new float[3 * width * height];
        float[] window = new float[3 * Math.max(width, height) * Math.max(width, height)];
        int side = Math.max(width, height);
        new Resampler().resize(pattern(), box, width, height, 0, 0, side, false, IDENTITY, window, 0);
        for (int y = 0; y < height; y++) {
            System.arraycopy(window, 3 * y * side, out, 3 * y * width, 3 * width);
        }
        int[] bytes = new int[out.length];
        for (int i = 0; i < out.length; i++) {
            bytes[i] = (int) out[i];
        }
        return bytes;
    }

    @Test
    void shrinkingMatchesPillow() {
        assertArrayEquals(DOWN, resize(CropBox.whole(13, 7), 5, 3));
    }

    @Test
    void aCropStretchedOneWayAndShrunkTheOtherMatchesPillow() {
        assertArrayEquals(CROPPED, resize(new CropBox(3, 2, 6, 4), 4, 6));
    }

    @Test
    void aWindowIsThePartOfTheWholeResizeAndFlipMirrorsIt() {
        RgbImage image = pattern();
        float[] whole = new float[3 * 9 * 9];
        new Resampler().resize(image, CropBox.whole(13, 7), 9, 9, 0, 0, 9, false, IDENTITY, whole, 0);
        float[] window = new float[3 * 4 * 4];
        new Resampler().resize(image, CropBox.whole(13, 7), 9, 9, 3, 2, 4, true, IDENTITY, window, 0);
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) {
                for (int c = 0; c < 3; c++) {
                    assertEquals(whole[3 * ((y + 2) * 9 + x + 3) + c], window[3 * (y * 4 + 3 - x) + c]);
                }
            }
        }
    }

    @Test
    void aBoxOutsideTheImageIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Resampler().resize(pattern(), new CropBox(8, 0, 6, 7),
                4, 4, 0, 0, 4, false, IDENTITY, new float[48], 0));
    }
}
