package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatasetTest {
    private static final float[] MEAN = {0.1f, 0.5f, 0.9f};
    private static final float[] STD = {0.5f, 0.25f, 2f};

    /** Two 1×2×3 images: values 0, 51, 102, 153, 204, 255 then their reverse. */
    private static Dataset colour() {
        byte[] pixels = new byte[12];
        for (int j = 0; j < 6; j++) {
            pixels[j] = (byte) (51 * j);
            pixels[11 - j] = (byte) (51 * j);
        }
        return new Dataset("colour", pixels, new int[] {1, 0}, new ImageShape(1, 2, 3), 2, MEAN, STD);
    }

    @Test
    void eachChannelIsNormalisedWithItsOwnStatistics() {
        float[] x = new float[12];
        float[] y = new float[2];
        colour().gather(new int[] {1, 0}, 0, 2, x, y);
        for (int j = 0; j < 12; j++) {
            int raw = 51 * (j < 6 ? 5 - j : j - 6);
            int c = j % 3;
            assertEquals((raw / 255.0 - MEAN[c]) / STD[c], x[j], 1e-6, "value " + j);
        }
        assertArrayEquals(new float[] {0, 1}, y);
        assertEquals((1.0 - MEAN[2]) / STD[2], colour().pixel(0, 5), 1e-6);
    }

    @Test
    void greyImagesKeepTheirSingleStatistics() {
        Dataset grey = new Dataset("grey", new byte[] {0, (byte) 255, 17}, new int[] {2}, 3, 3, 0.2860f, 0.3530f);
        assertEquals(new ImageShape(1, 3, 1), grey.shape());
        float[] x = new float[3];
        grey.copyRows(0, 1, x, new float[1]);
        assertArrayEquals(new float[] {(0 - 0.2860f) / 0.3530f, (1 - 0.2860f) / 0.3530f,
                (17 / 255f - 0.2860f) / 0.3530f}, x);
    }

    @Test
    void augmentationIsAFlagOnASharedView() {
        Dataset data = colour();
        assertFalse(data.augments());
        Dataset augmented = data.withAugmentation(true);
        assertTrue(augmented.augments());
        assertEquals(data.pixel(1, 4), augmented.pixel(1, 4));
        assertEquals("colour (2 images of 1×2×3, 2 classes)", augmented.toString());
    }

    @Test
    void statisticsMustMatchTheChannels() {
        assertEquals("colour: 3 channels need as many means and standard deviations, found 1 and 3",
                assertThrows(IllegalArgumentException.class, () -> new Dataset("colour", new byte[6], new int[1],
                        new ImageShape(1, 2, 3), 2, new float[1], STD)).getMessage());
        assertEquals("colour: std of channel 1 must be positive, found 0.0",
                assertThrows(IllegalArgumentException.class, () -> new Dataset("colour", new byte[6], new int[1],
                        new ImageShape(1, 2, 3), 2, MEAN, new float[] {1, 0, 1})).getMessage());
    }
}
