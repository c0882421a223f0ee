package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AugmentationTest {
    private static final int H = 6;
    private static final int W = 7;
    private static final int C = 3;
    private static final float[] MEAN = {0.4f, 0.5f, 0.6f};
    private static final float[] STD = {0.2f, 0.3f, 0.4f}; // raw 0 normalises to −2, −5/3, −3/2

    /** Ten random 6×7×3 images. */
    private static Dataset images(boolean augments) {
        Random rng = new Random(5);
        byte[] pixels = new byte[10 * H * W * C];
        rng.nextBytes(pixels);
        int[] labels = new int[10];
        Arrays.setAll(labels, i -> i % 4);
        return new Dataset("test", pixels, labels, new ImageShape(H, W, C), 4, MEAN, STD)
                .withAugmentation(augments);
    }

    private static float[] shifted(Dataset data, int image, int dy, int dx, boolean flip) {
        float[] x = new float[data.features()];
        data.copyShifted(image, 0, dy, dx, flip, x, new float[1]);
        return x;
    }

    private static float normalisedZero(int c) {
        return (0 - MEAN[c]) / STD[c];
    }

    @Test
    void aFlipMirrorsColumnsExactly() {
        Dataset data = images(false);
        for (int image = 0; image < 10; image++) {
            float[] flipped = shifted(data, image, 0, 0, true);
            for (int y = 0; y < H; y++) {
                for (int x = 0; x < W; x++) {
                    for (int c = 0; c < C; c++) {
                        assertEquals(data.pixel(image, (y * W + W - 1 - x) * C + c), flipped[(y * W + x) * C + c]);
                    }
                }
            }
        }
    }

    /** The reference pipeline: pad the raw image with zeros, crop at (4 + dy, 4 + dx), flip, then normalise. */
    private static float[] oracle(Dataset data, int image, int dy, int dx, boolean flip) {
        int p = Augmentation.PADDING;
        float[][][] padded = new float[H + 2 * p][W + 2 * p][C];
        for (float[][] row : padded) {
            for (float[] pixel : row) {
                for (int c = 0; c < C; c++) {
                    pixel[c] = normalisedZero(c);
                }
            }
        }
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                for (int c = 0; c < C; c++) {
                    padded[y + p][x + p][c] = data.pixel(image, (y * W + x) * C + c);
                }
            }
        }
        float[] out = new float[H * W * C];
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                int column = flip ? W - 1 - x : x;
                for (int c = 0; c < C; c++) {
                    out[(y * W + x) * C + c] = padded[y + p + dy][column + p + dx][c];
                }
            }
        }
        return out;
    }

    @Test
    void everyCropAndFlipMatchesPaddingWithRawZeroThenCroppingThenFlipping() {
        Dataset data = images(false);
        for (int dy = -4; dy <= 4; dy++) {
            for (int dx = -4; dx <= 4; dx++) {
                for (boolean flip : new boolean[] {false, true}) {
                    assertArrayEquals(oracle(data, 3, dy, dx, flip), shifted(data, 3, dy, dx, flip),
                            "dy " + dy + " dx " + dx + " flip " + flip);
                }
            }
        }
    }

    @Test
    void aShiftedCropMovesPixelsAndPadsWithEachChannelsNormalisedZero() {
        Dataset data = images(false);
        float[] crop = shifted(data, 2, 2, -3, false);
        // Output (0, 3) reads source (2, 0); output (0, 0) reads column −3, padding; output row 5 reads row 7.
        assertEquals(data.pixel(2, (2 * W) * C + 1), crop[3 * C + 1]);
        for (int c = 0; c < C; c++) {
            assertEquals(normalisedZero(c), crop[c], 1e-6f);
            assertEquals(normalisedZero(c), crop[(5 * W + 6) * C + c], 1e-6f);
        }
        assertArrayEquals(shifted(data, 2, 0, 0, false), gathered(data, 2), "no shift is the plain image");
    }

    private static float[] gathered(Dataset data, int image) {
        float[] x = new float[data.features()];
        data.gather(new int[] {image}, 0, 1, x, new float[1]);
        return x;
    }

    @Test
    void offsetsCoverEveryCropUniformlyAndHalfTheImagesAreFlipped() {
        Augmentation augmentation = new Augmentation(17, 0);
        int samples = 81_000;
        int[][] counts = new int[9][9];
        int flips = 0;
        for (long n = 0; n < samples; n++) {
            augmentation.draw(n);
            counts[augmentation.dy() + 4][augmentation.dx() + 4]++;
            flips += augmentation.flip() ? 1 : 0;
        }
        for (int[] row : counts) {
            for (int count : row) {
                assertTrue(Math.abs(count - 1000) < 5 * Math.sqrt(1000), "count " + count);
            }
        }
        assertTrue(Math.abs(flips - samples / 2) < 5 * Math.sqrt(samples / 4.0), "flips " + flips);
    }

    private static float[][] draw(Batches batches, int count, int batchSize, int features) {
        float[][] out = new float[count][batchSize * features];
        float[] y = new float[batchSize];
        for (int i = 0; i < count; i++) {
            batches.next(out[i], y);
        }
        return out;
    }

    @Test
    void sameSeedAndWorkerGiveTheSameBatchesAndOtherWorkersOthers() {
        Dataset data = images(true);
        float[][] first = draw(new Batches(data, 4, 9, 1), 6, 4, data.features());
        assertArrayEquals(first, draw(new Batches(data, 4, 9, 1), 6, 4, data.features()));
        assertFalse(Arrays.deepEquals(first, draw(new Batches(data, 4, 9, 2), 6, 4, data.features())));
        assertFalse(Arrays.deepEquals(first, draw(new Batches(data.withAugmentation(false), 4, 9, 1), 6, 4,
                data.features())), "augmentation changes the batches");
    }

    @Test
    void eachImageIsAugmentedByItsSampleNumberAcrossBatches() {
        Dataset data = images(true);
        BatchSampler sampler = new BatchSampler(10, 4, 6, 2);
        Augmentation augmentation = new Augmentation(6, 2);
        Batches batches = new Batches(data, 4, 6, 2);
        float[] expected = new float[4 * data.features()];
        float[] x = new float[4 * data.features()];
        float[] y = new float[4];
        for (long b = 0; b < 7; b++) {
            int[] batch = sampler.next();
            for (int r = 0; r < 4; r++) {
                augmentation.draw(4 * b + r);
                data.copyShifted(batch[r], r, augmentation.dy(), augmentation.dx(), augmentation.flip(), expected,
                        y);
            }
            batches.next(x, y);
            assertArrayEquals(expected, x, "batch " + b);
        }
    }

    @Test
    void unaugmentedBatchesAreTheSamplersIndicesGathered() {
        Dataset data = images(false);
        BatchSampler sampler = new BatchSampler(10, 3, 4, 0);
        Batches batches = new Batches(data, 3, 4, 0);
        float[] expected = new float[3 * data.features()];
        float[] x = new float[3 * data.features()];
        float[] y = new float[3];
        for (int i = 0; i < 7; i++) {
            int[] batch = sampler.next();
            data.gather(batch, 0, 3, expected, y);
            batches.next(x, y);
            assertArrayEquals(expected, x);
        }
    }

    @Test
    void aRestoredStreamAugmentsExactlyAsTheUninterruptedOne() throws Exception {
        Dataset data = images(true);
        Batches batches = new Batches(data, 4, 9, 3);
        draw(batches, 5, 4, data.features()); // into the third epoch of two batches each
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        batches.saveState(new DataOutputStream(bytes));
        assertEquals(44 + 4 * 10, bytes.size(), "the sampler's state and nothing more");
        float[][] expected = draw(batches, 7, 4, data.features());

        Batches restored = new Batches(data, 4, 9, 3);
        restored.restoreState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(2, restored.epoch());
        assertArrayEquals(expected, draw(restored, 7, 4, data.features()));
    }
}
